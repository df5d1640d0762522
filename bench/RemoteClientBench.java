import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.trestle.TableEntity;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.RemoteTables;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The copy's hand-written Table client (RemoteTables) against the official azure-data-tables SDK,
 * on the two things a copy does with an endpoint: write 100-entity upsert batches of one partition
 * with several in flight, and read a table page by page. Same entities (all 8 EDM types), same
 * endpoint, same number of batches in flight, run one after the other and then in the other
 * order, alternately; the client process's CPU time per entity is less sensitive than the rate to
 * a machine shared with other work. Usage (the SDK's classpath from any module that depends on azure-data-tables):
 * java -cp SDK_CLASSPATH:trestle.jar bench/RemoteClientBench.java ENDPOINT KEY N LANES [ROUNDS]
 */
public final class RemoteClientBench {
  public static void main(String[] args) throws Exception {
    String endpoint = args[0];
    String key = args[1];
    int n = Integer.parseInt(args[2]);
    int lanes = Integer.parseInt(args[3]);
    String account = endpoint.replaceAll("/+$", "").replaceAll(".*/", "");
    RemoteTables hand = RemoteTables.withKey(endpoint, key);
    String suffix = Long.toString(System.currentTimeMillis() % 100_000_000);
    System.out.println(
        "| round | client | write entities/s | write CPU µs/entity | read entities/s |"
            + " read CPU µs/entity | load (1 min) |");
    System.out.println("|---|---|---:|---:|---:|---:|---|");
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
    for (int round = 1; round <= rounds; round++) { // round 1 warms both up (JIT, connections)
      List<String> order = round % 2 == 1 ? List.of("hand", "sdk") : List.of("sdk", "hand");
      for (String client : order) {
        String table = client + round + "x" + suffix;
        TableClient sdk =
            new TableClientBuilder()
                .endpoint(endpoint)
                .credential(new com.azure.core.credential.AzureNamedKeyCredential(account, key))
                .tableName(table)
                .buildClient();
        double[] write;
        double[] read;
        if (client.equals("hand")) {
          hand.createTableIfNotExists(table);
          write = timed(n, () -> writeHand(hand, table, n, lanes));
          read = timed(n, () -> readHand(hand, table, n));
        } else {
          sdk.createTable();
          write = timed(n, () -> writeSdk(sdk, n, lanes));
          read = timed(n, () -> readSdk(sdk, n));
        }
        System.out.printf(
            "| %d | %s | %,.0f | %,.0f | %,.0f | %,.0f | %s |%n",
            round,
            client.equals("hand") ? "RemoteTables (java.net.http)" : "azure-data-tables 12.5.9",
            write[0],
            write[1],
            read[0],
            read[1],
            java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0]);
      }
    }
  }

  interface Work {
    void run() throws Exception;
  }

  /** Entities per second, and the process's CPU time per entity in microseconds. */
  private static double[] timed(int n, Work work) throws Exception {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long start = System.nanoTime();
    work.run();
    return new double[] {
      n / ((System.nanoTime() - start) / 1e9), (os.getProcessCpuTime() - cpu) / 1e3 / n
    };
  }

  private static void writeHand(RemoteTables hand, String table, int n, int lanes)
      throws Exception {
    inParallel(
        n,
        lanes,
        p -> {
          List<TableEntity> batch = new ArrayList<>();
          for (int r = 0; r < 100; r++) {
            int i = p * 100 + r;
            batch.add(
                TableEntity.builder("p" + p, String.format("r%06d", i))
                    .put("Text", "entity " + i)
                    .put("Int32", i)
                    .put("Int64", (long) i << 33)
                    .put("Double", i / 7.0)
                    .put("Flag", i % 2 == 0)
                    .put("When", Instant.ofEpochSecond(1_700_000_000L + i))
                    .put("Id", new UUID(i, i))
                    .put("Bytes", new byte[] {(byte) i, 1, 2, 3})
                    .build());
          }
          hand.writeBatch(table, batch, EntityWriter.Mode.UPSERT);
        });
  }

  private static void writeSdk(TableClient sdk, int n, int lanes) throws Exception {
    inParallel(
        n,
        lanes,
        p -> {
          List<TableTransactionAction> batch = new ArrayList<>();
          for (int r = 0; r < 100; r++) {
            int i = p * 100 + r;
            com.azure.data.tables.models.TableEntity entity =
                new com.azure.data.tables.models.TableEntity("p" + p, String.format("r%06d", i))
                    .addProperty("Text", "entity " + i)
                    .addProperty("Int32", i)
                    .addProperty("Int64", (long) i << 33)
                    .addProperty("Double", i / 7.0)
                    .addProperty("Flag", i % 2 == 0)
                    .addProperty(
                        "When", OffsetDateTime.ofInstant(
                            Instant.ofEpochSecond(1_700_000_000L + i), ZoneOffset.UTC))
                    .addProperty("Id", new UUID(i, i))
                    .addProperty("Bytes", new byte[] {(byte) i, 1, 2, 3});
            batch.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, entity));
          }
          sdk.submitTransaction(batch);
        });
  }

  interface Partition {
    void write(int partition) throws Exception;
  }

  private static void inParallel(int n, int lanes, Partition partition) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(lanes);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int p = 0; p < n / 100; p++) {
        int which = p;
        done.add(
            pool.submit(
                () -> {
                  partition.write(which);
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static void readHand(RemoteTables hand, String table, int n) {
    int count = 0;
    String continuation = null;
    do {
      RemoteTables.Page page = hand.page(table, continuation);
      count += page.entities().size();
      continuation = page.continuation().orElse(null);
    } while (continuation != null);
    check(count, n);
  }

  private static void readSdk(TableClient sdk, int n) {
    int count = 0;
    for (com.azure.data.tables.models.TableEntity entity : sdk.listEntities()) {
      count += entity.getRowKey().isEmpty() ? 0 : 1;
    }
    check(count, n);
  }

  private static void check(int count, int n) {
    if (count != n) {
      throw new IllegalStateException("read " + count + " entities, expected " + n);
    }
  }
}
