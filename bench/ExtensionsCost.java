import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.EdmType;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableExtensions;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TableWrite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The cost of each extension on one large table, measured in process through the library (no HTTP,
 * no JVM start). Run by bench/extensions-cost.sh: java -cp trestle.jar ExtensionsCost.java URL N.
 * Loads N entities in 10 partitions (p0..p9, Price = row % 1000), then times each extension and
 * prints a Markdown table with the load average before each measurement.
 */
public final class ExtensionsCost {
  private static final int PARTITIONS = 10;
  private static final List<String> rows = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int entities = Integer.parseInt(args[1]);
    int perPartition = entities / PARTITIONS;
    try (TableService service =
        TableService.builder().jdbcUrl(url).maximumPoolSize(2).relaxedTransactions(true).build()) {
      if (service.getTable("cost").isPresent()) {
        service.deleteTable("cost");
      }
      service.createTable("cost");
      long start = System.nanoTime();
      try (BulkWriter writer =
          service.bulkWriter("cost", BulkWriteOptions.defaults().withBatchSize(2_000))) {
        for (int p = 0; p < PARTITIONS; p++) {
          for (int r = 0; r < perPartition; r++) {
            writer.add(
                TableEntity.builder("p" + p, String.format("r%07d", r))
                    .put("Price", r % 1000)
                    .put("Name", "item " + r)
                    .build());
          }
        }
      }
      row(
          "load " + entities + " entities (bulk writer, one thread)",
          millis(System.nanoTime() - start),
          "");
      TableClient table = service.tableClient("cost");
      TableExtensions ext = table.extensions();

      once("count the table, first after the load", () -> ext.count((String) null));
      warm("count the table, warm", () -> ext.count((String) null));
      warm(
          "count a " + perPartition + "-entity partition",
          () -> ext.count("PartitionKey eq 'p3'"));
      warm("count `Price lt 10` (1%), no declared index", () -> ext.count("Price lt 10"));
      long indexStart = System.nanoTime();
      service.createIndex("cost", "Price", EdmType.INT32);
      row("declare an index on Price (built concurrently)", millis(System.nanoTime() - indexStart), "");
      warm("count `Price lt 10` (1%), declared index", () -> ext.count("Price lt 10"));
      warm("exists(pk, rk)", () -> ext.exists("p5", String.format("r%07d", perPartition / 2)));
      warm(
          "newest 10 of a partition",
          () ->
              ext.queryDescending(EntityQuery.filter("PartitionKey eq 'p4'").withTop(10))
                  .entities()
                  .size());
      List<TableWrite> relaxed = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        relaxed.add(
            new TableWrite(
                "cost",
                TableOperation.insert(
                    TableEntity.builder("n" + (i % PARTITIONS), "new" + i).put("Price", i).build())));
      }
      once(
          "relaxed transaction: 1,000 inserts over 10 new partitions",
          () -> service.extensions().submitTransaction(relaxed).size());
      once("delete a " + perPartition + "-entity partition", () -> ext.deletePartition("p9"));
      once(
          "delete where `Price lt 100` (9 partitions)",
          () -> ext.deleteWhere("Price lt 100"));
      once("truncate the rest", ext::truncate);
    }
    System.out.println("| operation | time | answer | load average (1 min) before |");
    System.out.println("|---|---:|---:|---|");
    rows.forEach(System.out::println);
  }

  private static void once(String what, Callable<Object> call) throws Exception {
    String load = load();
    long start = System.nanoTime();
    Object answer = call.call();
    rowWithLoad(what, millis(System.nanoTime() - start), String.valueOf(answer), load);
  }

  /** The median of five runs after one unmeasured. */
  private static void warm(String what, Callable<Object> call) throws Exception {
    String load = load();
    Object answer = call.call();
    long[] times = new long[5];
    for (int i = 0; i < times.length; i++) {
      long start = System.nanoTime();
      call.call();
      times[i] = System.nanoTime() - start;
    }
    Arrays.sort(times);
    rowWithLoad(what + " (median of 5)", millis(times[2]), String.valueOf(answer), load);
  }

  private static void row(String what, String time, String answer) throws Exception {
    rowWithLoad(what, time, answer, load());
  }

  private static void rowWithLoad(String what, String time, String answer, String load) {
    String line = "| " + what + " | " + time + " | " + answer + " | " + load + " |";
    System.err.println(line);
    rows.add(line);
  }

  private static String millis(long nanos) {
    double ms = nanos / 1e6;
    return ms >= 1000 ? String.format("%.2f s", ms / 1000) : String.format("%.1f ms", ms);
  }

  private static String load() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
  }
}
