package dev.trestle.store.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FaultyDataSource;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Chunk and time-budget boundaries, made reachable on a small table by shrinking the scan's limits.
 */
class EntityScanTest {

  private static TableClient table(TestDatabase database, QueryLimits limits) {
    return filledTable(service(database.dataSource(), TestDatabase.newAccount(), limits));
  }

  private static TableService service(DataSource dataSource, String account, QueryLimits limits) {
    return SqlTableService.open(StoreSettings.onDataSource(dataSource, account), limits);
  }

  private static TableClient filledTable(TableService service) {
    service.createTable("scan");
    TableClient table = service.tableClient("scan");
    for (int p = 0; p < 6; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < 40; r++) {
        int n = p * 40 + r;
        batch.add(
            TableOperation.insert(
                TableEntity.builder("p" + p, String.format("r%02d", r))
                    .put("n", n)
                    .put("third", "t" + n % 3)
                    .build()));
      }
      table.submitTransaction(batch);
    }
    return table;
  }

  private static List<Integer> readAll(
      TableClient table, EntityQuery query, List<Integer> pageSizes) {
    List<Integer> values = new ArrayList<>();
    while (true) {
      EntityPage page = table.query(query);
      pageSizes.add(page.entities().size());
      page.entities().forEach(e -> values.add((Integer) e.properties().get("n").value()));
      if (page.next().isEmpty()) {
        return values;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  @DatabaseTest
  void aSpentBudgetEndsThePageAfterOneChunkAndTheScanStillSeesEveryMatchOnce(
      TestDatabase database) {
    TableClient table = table(database, new QueryLimits(Duration.ZERO, 3, 5));
    List<Integer> pageSizes = new ArrayList<>();
    List<Integer> values = readAll(table, EntityQuery.filter("n ge 100 and n lt 200"), pageSizes);

    assertThat(values)
        .containsExactlyElementsOf(java.util.stream.IntStream.range(100, 200).boxed().toList());
    assertThat(pageSizes).contains(0).allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(5));
  }

  @DatabaseTest({
    TestDatabase.Kind.H2,
    TestDatabase.Kind.POSTGRESQL,
    TestDatabase.Kind.POSTGRESQL_PROPERTY_INDEX,
    TestDatabase.Kind.POSTGRESQL_SCALAR_STORE
  })
  void aSpentBudgetEndsEveryPageOfAnEqualityFilterAndTheScanStillSeesEveryMatchOnce(
      TestDatabase database) {
    TableClient table = table(database, new QueryLimits(Duration.ZERO, 3, 5));
    List<Integer> pageSizes = new ArrayList<>();
    List<Integer> values =
        readAll(table, EntityQuery.filter("third eq 't1' and n ge 100"), pageSizes);

    assertThat(values)
        .containsExactlyElementsOf(
            java.util.stream.IntStream.range(100, 240).filter(n -> n % 3 == 1).boxed().toList());
    assertThat(pageSizes)
        .hasSizeGreaterThan(1)
        .allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(5));
  }

  /**
   * On PostgreSQL a walk that finds its range sparse in matches reads the rest as a sort of its
   * matches (after about 16 progress markers, here 48 rows): the pages still hold every match once,
   * in key order, also when a page ends inside the sorted rest.
   */
  @DatabaseTest
  void aSparseFilterThatFinishesItsPagesSortedStillSeesEveryMatchOnceInKeyOrder(
      TestDatabase database) {
    TableClient table = table(database, new QueryLimits(Duration.ofMinutes(1), 3, 5));
    analyze(database); // the walk judges the rest of its range by the planner's estimate
    String filter = "n eq 5 or n eq 150 or n ge 230 or (third eq 't2' and n gt 180 and n lt 190)";
    List<Integer> expected =
        List.of(5, 150, 182, 185, 188, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239);

    List<Integer> onePage = readAll(table, EntityQuery.filter(filter), new ArrayList<>());
    List<Integer> pageSizes = new ArrayList<>();
    List<Integer> smallPages = readAll(table, EntityQuery.filter(filter).withTop(10), pageSizes);

    assertThat(onePage).containsExactlyElementsOf(expected);
    assertThat(smallPages).containsExactlyElementsOf(expected);
    assertThat(pageSizes)
        .hasSizeGreaterThan(1)
        .allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(10));
  }

  private static void analyze(TestDatabase database) {
    if (database.kind() != TestDatabase.Kind.H2) {
      try (var connection = database.dataSource().getConnection();
          var statement = connection.createStatement()) {
        statement.execute("analyze trestle_entity");
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @DatabaseTest
  void chunksAdvanceWithinAKeyRange(TestDatabase database) {
    TableClient table = table(database, new QueryLimits(Duration.ZERO, 2, 4));
    List<Integer> pageSizes = new ArrayList<>();
    List<Integer> values =
        readAll(
            table,
            EntityQuery.filter("PartitionKey eq 'p3' and RowKey ge 'r10' and RowKey lt 'r20'"),
            pageSizes);

    assertThat(values)
        .containsExactlyElementsOf(java.util.stream.IntStream.range(130, 140).boxed().toList());
    // The key range bounds the chunks: no page is spent on other partitions.
    assertThat(pageSizes.stream().filter(size -> size == 0).count()).isLessThanOrEqualTo(1);
  }

  @DatabaseTest
  void topEndsAPageInsideAChunk(TestDatabase database) {
    TableClient table = table(database, new QueryLimits(Duration.ofMinutes(1), 50, 50));
    List<Integer> pageSizes = new ArrayList<>();
    List<Integer> values = readAll(table, EntityQuery.all().withTop(7), pageSizes);

    assertThat(values)
        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 240).boxed().toList());
    assertThat(pageSizes.subList(0, pageSizes.size() - 1)).containsOnly(7);
  }

  @DatabaseTest
  void aPageWhoseConnectionWaitAteItsBudgetAnswersRightAfterWithWhatItReadAndAContinuation(
      TestDatabase database) {
    String account = TestDatabase.newAccount();
    filledTable(service(database.dataSource(), account, QueryLimits.SERVICE));
    FaultyDataSource slowPool = new FaultyDataSource(database.dataSource());
    TableClient table =
        service(slowPool, account, new QueryLimits(Duration.ofSeconds(1), 3, 5))
            .tableClient("scan");
    slowPool.connectionWait(Duration.ofMillis(1200));

    long started = System.nanoTime();
    EntityPage page = table.query(EntityQuery.all());
    long millis = (System.nanoTime() - started) / 1_000_000;

    // One wait for a connection, then the one step every page takes, so that paging makes progress.
    assertThat(millis).isLessThan(1200 + 600);
    assertThat(page.next()).isPresent();
    assertThat(page.entities())
        .isNotEmpty()
        .extracting(e -> (Integer) e.properties().get("n").value())
        .containsExactlyElementsOf(
            java.util.stream.IntStream.range(0, page.entities().size()).boxed().toList());
  }
}
