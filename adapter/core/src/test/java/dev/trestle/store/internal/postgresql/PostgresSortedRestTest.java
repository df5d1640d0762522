package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;

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

  @BeforeEach
  void forget() {
    transactions.clear();
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aWalkThatWouldReadTheWholeTableBeforeItsPageIsFullIsReadSorted(TestDatabase database) {
    // one match in 80 rows: 25 in all, fewer than the page wants
    IntPredicate hit = n -> n % 80 == 40;
    TableClient table = table(database, hit);

    List<Integer> values = firstPage(table, EntityQuery.filter("hit eq true").withTop(100));

    assertThat(values).containsExactlyElementsOf(matches(hit));
    assertThat(sortedRests()).isEqualTo(1);
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aWalkThatWouldFillItsPageHalfWayWalksOn(TestDatabase database) {
    // one match in 20 rows: the page of 50 fills after about half the table, sooner than a sort
    IntPredicate hit = n -> n % 20 == 10;
    TableClient table = table(database, hit);

    List<Integer> values = firstPage(table, EntityQuery.filter("hit eq true").withTop(50));

    assertThat(values).containsExactlyElementsOf(matches(hit).subList(0, 50));
    assertThat(sortedRests()).isZero();
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aWalkWhoseMatchesFillThePageEarlyIsNeverSorted(TestDatabase database) {
    // one match in 4 rows: the page of 20 fills after about 80 of the 2,000
    IntPredicate hit = n -> n % 4 == 1;
    TableClient table = table(database, hit);

    List<Integer> values = firstPage(table, EntityQuery.filter("hit eq true").withTop(20));

    assertThat(values).containsExactlyElementsOf(matches(hit).subList(0, 20));
    assertThat(sortedRests()).isZero();
  }

  private TableClient table(TestDatabase database, IntPredicate hit) {
    DataSource recorded = RecordingDataSource.wrap(database.dataSource(), transactions::add);
    TableService service =
        SqlTableService.open(
            StoreSettings.onDataSource(recorded, TestDatabase.newAccount()), SMALL_CHUNKS);
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
    // the walk judges the rest of its range by the planner's estimate of its rows
    analyze(database);
    transactions.clear();
    return table;
  }

  private static void analyze(TestDatabase database) {
    try (var connection = database.dataSource().getConnection();
        var statement = connection.createStatement()) {
      statement.execute("analyze trestle_entity");
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
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
