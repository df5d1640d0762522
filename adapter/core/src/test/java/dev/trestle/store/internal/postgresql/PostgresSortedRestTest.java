package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.RecordingDataSource;
import dev.trestle.testing.RecordingDataSource.Execution;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * PostgreSQL only (the page cursor): a walk in key order that would read most of the table before
 * its page is full reads the rest of its range as one sort of the first matches instead. Judged
 * from the walk's rate of matches; the answers are the walk's either way.
 */
class PostgresSortedRestTest {
  /** Every row a progress marker: the walk is first judged after 16 rows that do not match. */
  private static final QueryLimits SMALL_CHUNKS = new QueryLimits(Duration.ofMinutes(1), 1, 1000);

  private static final int ROWS = 2000;

  private final List<List<Execution>> transactions = new CopyOnWriteArrayList<>();

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aWalkThatWouldReadTheWholeTableBeforeItsPageIsFullIsReadSorted(TestDatabase database)
      throws SQLException {
    // one match in 80 rows: 25 in all, fewer than the page wants
    IntPredicate hit = n -> n % 80 == 40;
    try (OwnDatabase own = new OwnDatabase(database, hit)) {
      List<Integer> values = firstPage(own.table, EntityQuery.filter("hit eq true").withTop(100));

      assertThat(values).containsExactlyElementsOf(matches(hit));
      assertThat(sortedRests()).isEqualTo(1);
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aWalkThatWouldFillItsPageHalfWayWalksOn(TestDatabase database) throws SQLException {
    // one match in 20 rows: the page of 50 fills after about half the table, sooner than a sort
    IntPredicate hit = n -> n % 20 == 10;
    try (OwnDatabase own = new OwnDatabase(database, hit)) {
      List<Integer> values = firstPage(own.table, EntityQuery.filter("hit eq true").withTop(50));

      assertThat(values).containsExactlyElementsOf(matches(hit).subList(0, 50));
      assertThat(sortedRests()).isZero();
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aWalkWhoseMatchesFillThePageEarlyIsNeverSorted(TestDatabase database) throws SQLException {
    // one match in 4 rows: the page of 20 fills after about 80 of the 2,000
    IntPredicate hit = n -> n % 4 == 1;
    try (OwnDatabase own = new OwnDatabase(database, hit)) {
      List<Integer> values = firstPage(own.table, EntityQuery.filter("hit eq true").withTop(20));

      assertThat(values).containsExactlyElementsOf(matches(hit).subList(0, 20));
      assertThat(sortedRests()).isZero();
    }
  }

  /**
   * A table of {@link #ROWS} entities, alone in a database of its own: the walk judges by the
   * planner's estimates of the table's rows, which other tests' tables would move.
   */
  private final class OwnDatabase implements AutoCloseable {
    final TableClient table;
    private final TestDatabase server;
    private final String name =
        "trestle_rest_"
            + Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE), 36);
    private HikariDataSource pool;
    private TableService service;

    OwnDatabase(TestDatabase server, IntPredicate hit) throws SQLException {
      this.server = server;
      admin("CREATE DATABASE " + name);
      try {
        pool = pool();
        TableService.builder().dataSource(pool).account("migrate").build().close();
        service =
            SqlTableService.open(
                StoreSettings.onDataSource(
                    RecordingDataSource.wrap(pool, transactions::add), TestDatabase.newAccount()),
                SMALL_CHUNKS);
        fill(hit);
      } catch (SQLException | RuntimeException e) {
        close();
        throw e;
      }
      table = service.tableClient("rest");
    }

    private HikariDataSource pool() {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(
          server.jdbcUrl().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + name));
      config.setUsername(server.username());
      config.setPassword(server.password());
      config.setMaximumPoolSize(2);
      return new HikariDataSource(config);
    }

    private void fill(IntPredicate hit) throws SQLException {
      service.createTable("rest");
      TableClient table = service.tableClient("rest");
      List<TableOperation> batch = new ArrayList<>();
      for (int n = 0; n < ROWS; n++) {
        batch.add(
            TableOperation.insert(
                TableEntity.builder("p", String.format("r%04d", n))
                    .put("n", n)
                    .put("hit", hit.test(n))
                    .build()));
        if (batch.size() == 100) {
          table.submitTransaction(batch);
          batch = new ArrayList<>();
        }
      }
      try (Connection connection = pool.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("analyze trestle_entity");
      }
      transactions.clear();
    }

    private void admin(String statement) throws SQLException {
      try (Connection connection = server.dataSource().getConnection();
          Statement admin = connection.createStatement()) {
        admin.execute(statement);
      }
    }

    @Override
    public void close() throws SQLException {
      if (service != null) {
        service.close();
      }
      if (pool != null) {
        pool.close();
      }
      admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  private static List<Integer> firstPage(TableClient table, EntityQuery query) {
    return table.query(query).entities().stream()
        .map(e -> (Integer) e.properties().get("n").value())
        .toList();
  }

  private static List<Integer> matches(IntPredicate hit) {
    return IntStream.range(0, ROWS).filter(hit).boxed().toList();
  }

  /** How many times the recorded pages went on as a sort of their rest. */
  private long sortedRests() {
    return transactions.stream()
        .flatMap(List::stream)
        .filter(e -> e.sql().startsWith("declare trestle_page_rest"))
        .count();
  }
}
