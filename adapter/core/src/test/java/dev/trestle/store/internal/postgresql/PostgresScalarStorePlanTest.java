package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.filter.FilterEvaluator;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.filter.FilterTranslator;
import dev.trestle.store.internal.filter.IndexCandidates;
import dev.trestle.store.internal.filter.ScalarPrefilter;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.Arrays;
import java.util.List;
import org.jooq.Condition;
import org.jooq.impl.DSL;

/**
 * PostgreSQL only: a filter on properties without a declared index walks the scalar store, reaching
 * the entity rows by their primary key only (never a scan of the entity heap), in the ordered walk
 * and in the sorted rest of a sparse range; with a declared index that narrows, the page reads the
 * index's candidates as before, and the scalar store is not read. The answers are the reference
 * evaluator's, long strings and binaries (marked in the store) included.
 */
class PostgresScalarStorePlanTest {
  private static final String LONG = "L".repeat(70);

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  void filtersWithoutADeclaredIndexWalkTheScalarStoreOnPostgresql(TestDatabase database) {
    String account = TestDatabase.newAccount();
    StoreSettings settings = StoreSettings.onDataSource(database.dataSource(), account);
    try (Store store = Store.open(settings, QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings)) {
      List<TableEntity> stored = PostgresDeclaredIndexPlanTest.fill(service);
      TableClient table = service.tableClient("goods");
      // long values, copied to the store only as markers
      for (int n = 0; n < stored.size(); n += 37) {
        TableEntity entity = stored.get(n);
        stored.set(
            n,
            table.upsertMerge(
                TableEntity.builder(entity.partitionKey(), entity.rowKey())
                    .put("Note", LONG + (n % 3))
                    .put("Blob", new byte[33 + n % 2])
                    .build()));
      }
      store.sql.execute("ANALYZE trestle_entity");
      store.sql.execute("ANALYZE trestle_entity_scalar");
      IndexedTable plain = IndexCatalogue.lookup(store, store.sql, account, "goods");

      List<String> filters =
          List.of(
              "n gt 3990",
              "Category eq 'c7' and n lt 500",
              "Kind eq 'rare' or n eq 7",
              "Note eq '" + LONG + "1'",
              "not (Note lt '" + LONG + "1') and Category eq 'c3'",
              "Blob ne X'" + "00".repeat(33) + "' and n le 400",
              "Category eq 'c9' and Timestamp ge datetime'2000-01-01T00:00:00Z'",
              // every Description is marked: the prefilter passes every row
              "Description eq 'x'",
              "Description lt '1' and n ge 3900");
      Condition resumed = DSL.row(Schema.PARTITION_KEY, Schema.ROW_KEY).gt("p00", "r050");
      for (String filter : filters) {
        CursorScan scan = cursorScan(store, plain, FilterParser.parse(filter), false);
        assertThat(scan.scanRequest().prefilter()).as(filter).isNotNull();
        for (Condition resume : Arrays.asList(null, resumed)) {
          String walk =
              store.inTransaction(
                  sql ->
                      PostgresDeclaredIndexPlanTest.explainCursor(
                          sql, scan.walkQuery(sql, resume)));
          assertReadsTheScalarStore(filter, walk);
        }
        String rest =
            store.inTransaction(
                sql -> {
                  sql.execute(CursorScan.sortedRestSettings(true));
                  return PostgresDeclaredIndexPlanTest.explainCursor(
                      sql, scan.sortedRest(sql, 1000, "p10", "r000", true));
                });
        assertReadsTheScalarStore(filter, rest);
        FilterExpression expression = FilterParser.parse(filter);
        List<String> expected =
            stored.stream()
                .filter(e -> FilterEvaluator.matches(expression, e))
                .map(e -> e.partitionKey() + "/" + e.rowKey())
                .toList();
        assertThat(PostgresDeclaredIndexPlanTest.queryAll(table, filter))
            .as(filter)
            .containsExactlyElementsOf(expected);
      }

      service.createIndex("goods", "n", EdmType.INT32);
      store.sql.execute("ANALYZE trestle_entity");
      IndexedTable indexed = IndexCatalogue.lookup(store, store.sql, account, "goods");
      CursorScan narrow = cursorScan(store, indexed, FilterParser.parse("n gt 3990"), true);
      // about 600 candidates of 4,000 rows, for pages of 100: reading them all on every page costs
      // more than walking the store's rows (C² > 2·100·4,000·0.3), where a rule that took a walked
      // row for a candidate row read them (C² ≤ 2·100·4,000)
      CursorScan wide = cursorScan(store, indexed, FilterParser.parse("n gt 3400"), true);
      String plan =
          store.inTransaction(
              sql -> {
                assertThat(wide.narrows(sql, 100, null)).as("600 of 4,000 rows").isFalse();
                assertThat(narrow.narrows(sql, 100, null)).isTrue();
                narrow.planFor(sql);
                return PostgresDeclaredIndexPlanTest.explainCursor(
                    sql, narrow.walkQuery(sql, null));
              });
      assertThat(plan).as(plan).doesNotContain("trestle_entity_scalar");
      assertThat(plan).as(plan).contains("Index Scan using " + indexed.ready().get(0).indexName());
    }
  }

  /** The scalar store is the table read; the entity rows are reached by their primary key only. */
  private static void assertReadsTheScalarStore(String filter, String plan) {
    assertThat(plan).as(filter + "\n" + plan).containsPattern("Scan .*on trestle_entity_scalar s");
    assertThat(plan)
        .as(filter + "\n" + plan)
        .containsPattern("Index Scan using trestle_entity_pk on trestle_entity e");
    assertThat(plan)
        .as(filter + "\n" + plan)
        .doesNotContainPattern("(Seq|Bitmap Heap) Scan on trestle_entity e");
  }

  private static CursorScan cursorScan(
      Store store, IndexedTable table, FilterExpression expression, boolean withIndexes) {
    FilterTranslator translator = new FilterTranslator(store.dialect);
    return new CursorScan(
        new ScanRequest(
            store,
            QueryLimits.SERVICE,
            table.id(),
            translator.entities(expression),
            translator.keyRange(expression),
            withIndexes
                ? new IndexCandidates(table.ready(), store.indexBuilder, translator).of(expression)
                : null,
            null,
            new dev.trestle.store.internal.database.PageBudget(QueryLimits.SERVICE.budget()),
            null,
            null,
            null,
            new ScalarPrefilter(store.dialect, "s").necessary(expression)));
  }
}
