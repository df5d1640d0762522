package dev.trestle.bench;

import dev.trestle.ChangeFeed;
import dev.trestle.ChangePage;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * What a change feed costs the writes of its table, and how fast it reads, on PostgreSQL: single
 * inserts and 100-entity batches into a table without a feed, with a feed, with a feed recording
 * entities, and without a feed with the feed triggers disabled (the schema before V5), round after
 * round so drift on a shared machine hits all alike; then pages of 1000 changes read. Not a test:
 *
 * <pre>
 *   ./mvnw -B -q -pl adapter/core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp adapter/core/target/classes:adapter/core/target/test-classes:$(cat adapter/core/target/cp.txt) \
 *       dev.trestle.bench.ChangeFeedBenchmark JDBC_URL [seconds-per-measurement] [rounds]
 * </pre>
 */
public final class ChangeFeedBenchmark {
  private static final String[] SETUPS = {"no triggers", "feed off", "feed on", "feed + entities"};

  public static void main(String[] args) throws Exception {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(args[0]);
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    try (TableService service =
        TableService.builder()
            .dataSource(dataSource)
            .account("bench" + System.nanoTime())
            .build()) {
      List<TableClient> tables = new ArrayList<>();
      for (int i = 0; i < SETUPS.length; i++) {
        service.createTable("feed" + i);
        tables.add(service.tableClient("feed" + i));
      }
      tables.get(2).extensions().changeFeed().enable(false, ChangeFeed.DEFAULT_RETENTION);
      tables.get(3).extensions().changeFeed().enable(true, ChangeFeed.DEFAULT_RETENTION);
      double[][] inserts = new double[SETUPS.length][rounds];
      double[][] batches = new double[SETUPS.length][rounds];
      int[] sequence = new int[1];
      for (int round = 0; round < rounds; round++) {
        for (int s = 0; s < SETUPS.length; s++) {
          triggers(dataSource, s != 0);
          TableClient table = tables.get(s);
          inserts[s][round] =
              rate(seconds, () -> table.insert(entity("single", "r" + sequence[0]++)));
          batches[s][round] =
              rate(
                  seconds,
                  () -> {
                    String partition = "b" + sequence[0]++;
                    List<TableOperation> batch = new ArrayList<>(100);
                    for (int i = 0; i < 100; i++) {
                      batch.add(TableOperation.insert(entity(partition, "r" + i)));
                    }
                    table.submitTransaction(batch);
                  });
        }
      }
      triggers(dataSource, true);
      for (int s = 0; s < SETUPS.length; s++) {
        System.out.printf(
            "%-16s insert/s %s   batch(100)/s %s%n",
            SETUPS[s], rates(inserts[s]), rates(batches[s]));
      }
      for (int s = 2; s < SETUPS.length; s++) {
        ChangeFeed feed = tables.get(s).extensions().changeFeed();
        long started = System.nanoTime();
        long read = 0;
        String token = null;
        while (true) {
          ChangePage page = feed.read(token, ChangeFeed.MAX_PAGE, Duration.ZERO);
          if (page.changes().isEmpty()) {
            break;
          }
          read += page.changes().size();
          token = page.next();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        System.out.printf(
            "%-16s read %d changes in %.2f s: %.0f changes/s%n",
            SETUPS[s], read, elapsed, read / elapsed);
      }
    }
  }

  private static TableEntity entity(String partition, String row) {
    return TableEntity.builder(partition, row)
        .put("Name", "name of " + row)
        .put("Count", 42)
        .put("Price", 12.5)
        .build();
  }

  private static void triggers(DataSource dataSource, boolean enabled) throws Exception {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "alter table trestle_entity " + (enabled ? "enable" : "disable") + " trigger user");
    }
  }

  private static double rate(double seconds, Runnable operation) {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long started = System.nanoTime();
    int count = 0;
    while (System.nanoTime() < end) {
      operation.run();
      count++;
    }
    return count / ((System.nanoTime() - started) / 1e9);
  }

  private static String rates(double[] perRound) {
    StringBuilder text = new StringBuilder();
    for (double rate : perRound) {
      text.append(String.format("%7.0f", rate));
    }
    return text.toString();
  }
}
