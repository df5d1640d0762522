package dev.trestle.bench;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.json.MetadataLevel;
import dev.trestle.json.internal.EntityRowPage;
import dev.trestle.json.internal.RowQueries;
import dev.trestle.server.internal.json.ODataJsonWriter;
import dev.trestle.testing.TestDatabase;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * The JVM CPU of one partition-scan page of 1,000 entities of table-bench's shape (a short and a
 * 600-character string, Int32 ×2, Int64, Double, Boolean, DateTime, Guid, 48-byte Binary), split
 * into reading the page from the store ({@link RowQueries#queryRows}) and writing it as the
 * response ({@link ODataJsonWriter#page}) at each metadata level. The server's own CPU per query
 * adds HTTP and authentication to these. Not a test (no assertions, not run by surefire):
 *
 * <pre>
 *   ./mvnw -B -q -pl adapter/server -am test-compile dependency:build-classpath \
 *       -Dmdep.outputFile=target/cp.txt -Dspotless.check.skip=true
 *   java -cp adapter/server/target/classes:adapter/server/target/test-classes:$(cat adapter/server/target/cp.txt) \
 *       dev.trestle.bench.QueryPageBenchmark [seconds-per-measurement] [rounds] [read]
 * </pre>
 *
 * PostgreSQL from {@code TRESTLE_TEST_PG_URL} (else embedded), in a schema of its own.
 */
public final class QueryPageBenchmark {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int ENTITIES = 1000;

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 4;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    // "read" measures the store's part alone, for a profile of it
    boolean readOnly = args.length > 2 && args[2].equals("read");
    try (TableService service =
        TableService.builder()
            .dataSource(TestDatabase.get(TestDatabase.Kind.POSTGRESQL).dataSource())
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      service.createTable("scan");
      TableClient table = service.tableClient("scan");
      load(table);
      EntityQuery query = new EntityQuery("PartitionKey eq 'p00000'", null, null, null);
      RowQueries rows = (RowQueries) table;
      for (int round = 0; round <= rounds; round++) {
        String label = round == 0 ? "warm-up" : "round " + round;
        double read = measure(seconds, () -> rows.queryRows(query));
        EntityRowPage page = rows.queryRows(query);
        StringBuilder line = new StringBuilder();
        line.append(String.format(Locale.ROOT, "%-8s read %6.2f ms", label, read));
        for (MetadataLevel level : readOnly ? new MetadataLevel[0] : MetadataLevel.values()) {
          ODataJsonWriter writer = new ODataJsonWriter(level, "http://127.0.0.1/acct", "acct");
          double write = measure(seconds, () -> writer.page("scan", page.entities(), null));
          line.append(String.format(Locale.ROOT, ", write %s %6.2f ms", level, write));
        }
        System.out.println(line + " (JVM CPU per page of " + ENTITIES + ")");
      }
    }
    System.exit(0); // the PostgreSQL test database drops its schema in a shutdown hook
  }

  /** Thread CPU milliseconds per call, over about {@code seconds}. */
  private static double measure(double seconds, Runnable call) {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long cpu = THREADS.getCurrentThreadCpuTime();
    int calls = 0;
    while (System.nanoTime() < end) {
      call.run();
      calls++;
    }
    return (THREADS.getCurrentThreadCpuTime() - cpu) / 1e6 / calls;
  }

  private static void load(TableClient table) {
    Random random = new Random(42);
    StringBuilder pad = new StringBuilder();
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    for (int i = 0; i < 900; i++) {
      pad.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    List<TableOperation> batch = new ArrayList<>();
    for (int i = 0; i < ENTITIES; i++) {
      byte[] data = new byte[48];
      random.nextBytes(data);
      int offset = random.nextInt(256);
      batch.add(
          TableOperation.insert(
              TableEntity.builder("p00000", String.format(Locale.ROOT, "r%09d", i))
                  .put("Category", "c" + random.nextInt(10))
                  .put("Price", random.nextInt(1000))
                  .put("Quantity", random.nextInt(10000))
                  .put("Sku", random.nextLong() >>> 1)
                  .put("Ratio", random.nextInt(100000) / 1000.0 + 0.25)
                  .put("Active", random.nextBoolean())
                  .put("Created", Instant.parse("2024-01-01T00:00:00Z").plusMillis(i * 7919L))
                  .put("Uid", UUID.randomUUID())
                  .put("Data", data)
                  .put("Description", pad.substring(offset, offset + 600))
                  .build()));
      if (batch.size() == 100) {
        table.submitTransaction(batch);
        batch.clear();
      }
    }
  }
}
