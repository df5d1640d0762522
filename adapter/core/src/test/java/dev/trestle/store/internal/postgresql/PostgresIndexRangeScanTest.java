package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.filter.FilterTranslator;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jooq.ResultQuery;

/**
 * PostgreSQL only: a PartitionKey equality with a RowKey range runs as a range scan of the primary
 * key, in key order (no sort), as the page cursor declares it.
 */
class PostgresIndexRangeScanTest {

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void partitionAndRowKeyRangeIsAnIndexRangeScanOnPostgreSql(TestDatabase database) {
    String account = TestDatabase.newAccount();
    StoreSettings settings = StoreSettings.onDataSource(database.dataSource(), account);
    try (Store store = Store.open(settings, QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings)) {
      service.createTable("ranges");
      TableClient table = service.tableClient("ranges");
      for (int p = 0; p < 40; p++) {
        List<TableOperation> batch = new ArrayList<>();
        for (int r = 0; r < 100; r++) {
          batch.add(
              TableOperation.insert(
                  TableEntity.builder("p" + p, String.format("r%03d", r)).put("n", r).build()));
        }
        table.submitTransaction(batch);
      }
      store.sql.execute("ANALYZE trestle_entity");

      String walk =
          store.inTransaction(
              sql ->
                  explainCursor(
                      sql,
                      cursorScan(
                              store,
                              account,
                              "PartitionKey eq 'p7' and RowKey ge 'r010' and RowKey lt 'r020' and n ge 0")
                          .walkQuery(sql, null)));

      for (String plan : List.of(walk)) {
        assertThat(plan).containsPattern("Index (Only )?Scan using trestle_entity_pk");
        assertThat(plan).containsPattern("Index Cond: .*partition_key = .*row_key >= .*row_key < ");
        assertThat(plan).doesNotContain("Seq Scan").doesNotContain("Sort");
      }
    }
  }

  private static CursorScan cursorScan(Store store, String account, String filter) {
    FilterExpression expression = FilterParser.parse(filter);
    FilterTranslator translator = new FilterTranslator(store.dialect);
    long tableId = TableLookup.id(store.sql, account, "ranges");
    return new CursorScan(
        new ScanRequest(
            store,
            QueryLimits.SERVICE,
            tableId,
            translator.entities(expression),
            translator.keyRange(expression),
            store.propertyIndex.candidates(expression),
            null));
  }

  /** The plan of the query as a declared cursor, which is how the scan runs it. */
  private static String explainCursor(org.jooq.DSLContext sql, ResultQuery<?> query) {
    return sql
        .fetch(
            "EXPLAIN DECLARE explained NO SCROLL CURSOR FOR " + query.getSQL(),
            query.getBindValues().toArray())
        .stream()
        .map(row -> row.get(0, String.class))
        .collect(Collectors.joining("\n"));
  }
}
