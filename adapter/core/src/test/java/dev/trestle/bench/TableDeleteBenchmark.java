package dev.trestle.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableClient;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.SchemaMigrator;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * How long deleting a large table takes, and how long a writer of another table waits meanwhile:
 * fills a table with entities of about 1 KB, deletes it on one thread while another inserts into a
 * second table, and prints the delete's time and that writer's slowest insert. Not a test (not run
 * by surefire):
 *
 * <pre>
 *   ./mvnw -B -q -pl adapter/core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp adapter/core/target/classes:adapter/core/target/test-classes:$(cat adapter/core/target/cp.txt) \
 *       dev.trestle.bench.TableDeleteBenchmark [entities] [jdbc-url]
 * </pre>
 *
 * Without a URL, a new H2 file; a PostgreSQL URL needs an empty database of its own.
 */
public final class TableDeleteBenchmark {
  private TableDeleteBenchmark() {}

  public static void main(String[] args) throws Exception {
    int entities = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(
        args.length > 1
            ? args[1]
            : "jdbc:h2:file:" + Files.createTempDirectory("trestle-delete").resolve("bench"));
    config.setMaximumPoolSize(8);
    try (HikariDataSource dataSource = new HikariDataSource(config)) {
      SchemaMigrator.migrate(dataSource);
      try (TableService service =
          TableService.builder().dataSource(dataSource).account("bench").migrate(false).build()) {
        run(service, entities);
      }
    }
  }

  private static void run(TableService service, int entities) throws InterruptedException {
    service.createTable("big");
    service.createTable("other");
    TableClient big = service.tableClient("big");
    for (int partition = 0; partition < entities / 100; partition++) {
      List<TableOperation> group = new ArrayList<>();
      for (int row = 0; row < 100; row++) {
        group.add(
            TableOperation.insert(
                JdbcBaselineBenchmark.entity("p" + partition, "r" + row, partition * 100 + row)));
      }
      big.submitTransaction(group);
    }
    long[] deleteNanos = new long[1];
    Thread delete =
        Thread.ofPlatform()
            .start(
                () -> {
                  long start = System.nanoTime();
                  service.deleteTable("big");
                  deleteNanos[0] = System.nanoTime() - start;
                });
    TableClient other = service.tableClient("other");
    long slowest = 0;
    int inserts = 0;
    while (delete.isAlive()) {
      long start = System.nanoTime();
      other.insert(JdbcBaselineBenchmark.entity("o", "r" + inserts, inserts));
      inserts++;
      slowest = Math.max(slowest, System.nanoTime() - start);
    }
    delete.join();
    System.out.printf(
        "delete of %,d entities: %,d ms; meanwhile %,d inserts into another table, the slowest %,d ms%n",
        entities, deleteNanos[0] / 1_000_000, inserts, slowest / 1_000_000);
  }
}
