package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.IndexedProperty;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.filter.FilterEvaluator;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.DeclaredIndex;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.database.ValueKind;
import dev.trestle.store.internal.filter.FilterTranslator;
import dev.trestle.store.internal.filter.IndexCandidates;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.ResultQuery;
import org.jooq.impl.DSL;

/**
 * PostgreSQL only: for each filter shape the declared indexes serve (eq, ne, one-sided and
 * two-sided ranges, and with other conditions, or of indexed conditions and keys, Int32 and Double
 * literals on one index of numbers, Timestamp ranges), the page cursor's plan reads through the
 * index, from the start and when resumed, and the answers are exactly the reference evaluator's.
 */
class PostgresDeclaredIndexPlanTest {
  private static final int ENTITIES = 4000;
  private static final String DESCRIPTION = "0123456789abcdef".repeat(64);

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void eachSupportedShapeIsReadThroughItsDeclaredIndexOnPostgresql(TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (Store store = Store.open(settings(database, account), QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings(database, account))) {
      List<TableEntity> stored = fill(service);
      service.createIndex("goods", "n", EdmType.INT32);
      service.createIndex("goods", "Category", EdmType.STRING);
      service.createIndex("goods", "Kind", EdmType.STRING);
      service.createIndex("goods", "Stamp", EdmType.DATE_TIME);
      service.createIndex("goods", "Timestamp", EdmType.DATE_TIME);
      Instant mark = Instant.now();
      TableClient table = service.tableClient("goods");
      for (int n = 0; n < ENTITIES; n += 400) {
        TableEntity entity = stored.get(n);
        stored.set(n, table.upsertReplace(entity));
      }
      store.sql.execute("ANALYZE trestle_entity");
      IndexedTable indexed = IndexCatalogue.lookup(store, store.sql, account, "goods");
      assertThat(indexed.ready()).hasSize(5);

      List<String[]> shapes =
          List.of(
              new String[] {"n eq 7", "n"},
              new String[] {"n gt 3990", "n"},
              new String[] {"n ge 100 and n lt 110", "n"},
              new String[] {"n lt 3.5", "n"},
              new String[] {"Kind ne 'common'", "Kind"},
              new String[] {"Category eq 'c7' and Description ne 'x'", "Category"},
              new String[] {"n eq 5 or Category eq 'c9'", "n", "Category"},
              new String[] {"PartitionKey eq 'p01' or n eq 3005", "n"},
              new String[] {
                "Stamp ge datetime'2024-01-01T00:03:00Z' and Stamp lt datetime'2024-01-01T00:03:10Z'",
                "Stamp"
              },
              new String[] {"Timestamp ge datetime'" + mark + "'", "Timestamp"});
      for (String[] shape : shapes) {
        FilterExpression expression = FilterParser.parse(shape[0]);
        CursorScan scan = cursorScan(store, indexed, expression);
        assertThat(scan.scanRequest().candidates()).as(shape[0]).isNotNull();
        Condition resumed = DSL.row(Schema.PARTITION_KEY, Schema.ROW_KEY).gt("p00", "r050");
        for (Condition resume : Arrays.asList(null, resumed)) {
          String plan =
              store.inTransaction(
                  sql -> {
                    scan.planFor(sql);
                    return explainCursor(sql, scan.walkQuery(sql, resume));
                  });
          for (int i = 1; i < shape.length; i++) {
            String property = shape[i];
            DeclaredIndex index =
                indexed.ready().stream()
                    .filter(d -> d.property().equals(property))
                    .findFirst()
                    .orElseThrow();
            assertThat(plan)
                .as(shape[0] + "\n" + plan)
                .containsPattern("Index Scan (using|on) " + index.indexName() + " ");
          }
        }
        List<String> expected =
            stored.stream()
                .filter(e -> FilterEvaluator.matches(expression, e))
                .map(e -> e.partitionKey() + "/" + e.rowKey())
                .toList();
        assertThat(queryAll(table, shape[0])).as(shape[0]).containsExactlyElementsOf(expected);
      }
      assertThat(ValueKind.ofLiteral(dev.trestle.PropertyValue.of(1.5)))
          .isEqualTo(ValueKind.NUMBER);

      // a page reads through the candidates only while they are few enough for it
      CursorScan selective = cursorScan(store, indexed, FilterParser.parse("n eq 7"));
      CursorScan broad = cursorScan(store, indexed, FilterParser.parse("Kind ne 'rare'"));
      // about 700 candidates of 4,000 rows, for pages of 100: reading them all on every page costs
      // more than walking the rows (C² > 2·100·4,000·0.4), where a rule that took a walked row for
      // a candidate row read them (C² ≤ 2·100·4,000)
      CursorScan wide = cursorScan(store, indexed, FilterParser.parse("n gt 3300"));
      store.inTransaction(
          sql -> {
            assertThat(wide.narrows(sql, 100, null)).as("700 of 4,000 rows").isFalse();
            assertThat(selective.narrows(sql, 100, null)).isTrue();
            assertThat(broad.narrows(sql, 100, null)).as("99% of the table").isFalse();
            return null;
          });
      assertThat(queryAll(table, "Kind ne 'rare'")).hasSize(ENTITIES - ENTITIES / 100);

      checkIndexesOverSeveralProperties(store, service, account, stored);
    }
  }

  /**
   * On the same table, indexes over several properties in place of those on Category and Kind: a
   * filter on the first property and, under {@code and}, a further one reads both as the index's
   * conditions; the first alone reads it too; a further one alone, or in an {@code or}, is no
   * condition an index serves.
   */
  private static void checkIndexesOverSeveralProperties(
      Store store, TableService service, String account, List<TableEntity> stored) {
    for (String property : List.of("Category", "Kind")) {
      service.dropIndex("goods", property, EdmType.STRING);
    }
    service.dropIndex("goods", "n", EdmType.INT32);
    service.dropIndex("goods", "Stamp", EdmType.DATE_TIME);
    service.createIndex(
        "goods",
        List.of(
            new IndexedProperty("Category", EdmType.STRING),
            new IndexedProperty("n", EdmType.INT32)));
    service.createIndex(
        "goods",
        List.of(
            new IndexedProperty("Kind", EdmType.STRING),
            new IndexedProperty("Stamp", EdmType.DATE_TIME)));
    store.sql.execute("ANALYZE trestle_entity");
    IndexedTable indexed = IndexCatalogue.lookup(store, store.sql, account, "goods");
    TableClient table = service.tableClient("goods");

    List<String[]> shapes =
        List.of(
            new String[] {"Category eq 'c7' and n gt 3000", "Category", "'n'"},
            new String[] {"n lt 1000 and Category eq 'c7'", "Category", "'n'"},
            new String[] {"Category eq 'c7' and n ge 100 and n lt 900", "Category", "'n'"},
            new String[] {"Category eq 'c7'", "Category"},
            new String[] {
              "Kind eq 'rare' and Stamp ge datetime'2024-01-01T00:30:00Z'", "Kind", "'Stamp'"
            });
    for (String[] shape : shapes) {
      FilterExpression expression = FilterParser.parse(shape[0]);
      CursorScan scan = cursorScan(store, indexed, expression);
      assertThat(scan.scanRequest().candidates()).as(shape[0]).isNotNull();
      String plan =
          store.inTransaction(
              sql -> {
                scan.planFor(sql);
                return explainCursor(sql, scan.walkQuery(sql, null));
              });
      DeclaredIndex index =
          indexed.ready().stream()
              .filter(d -> d.property().equals(shape[1]))
              .findFirst()
              .orElseThrow();
      assertThat(plan)
          .as(shape[0] + "\n" + plan)
          .containsPattern("Index Scan (using|on) " + index.indexName() + " ");
      if (shape.length > 2) {
        String conditions =
            plan.lines().filter(line -> line.contains("Index Cond")).collect(Collectors.joining());
        assertThat(conditions)
            .as("both properties are the index's conditions\n" + plan)
            .contains("'" + shape[1] + "'")
            .contains(shape[2]);
      }
      assertThat(queryAll(table, shape[0]))
          .as(shape[0])
          .containsExactlyElementsOf(expected(stored, expression));
    }
    for (String alone :
        List.of(
            "n gt 3990", "Category eq 'c7' or n eq 5", "Stamp ge datetime'2024-01-01T00:30:00Z'")) {
      FilterExpression expression = FilterParser.parse(alone);
      assertThat(cursorScan(store, indexed, expression).scanRequest().candidates())
          .as(alone)
          .isNull();
      assertThat(queryAll(table, alone))
          .as(alone)
          .containsExactlyElementsOf(expected(stored, expression));
    }
  }

  private static List<String> expected(List<TableEntity> stored, FilterExpression expression) {
    return stored.stream()
        .filter(e -> FilterEvaluator.matches(expression, e))
        .map(e -> e.partitionKey() + "/" + e.rowKey())
        .toList();
  }

  /** The keys a filter answers, read page by page through continuations (pages of 7). */
  static List<String> queryAll(TableClient table, String filter) {
    List<String> keys = new ArrayList<>();
    EntityQuery query = EntityQuery.filter(filter).withTop(7);
    while (true) {
      EntityPage page = table.query(query);
      page.entities().forEach(e -> keys.add(e.partitionKey() + "/" + e.rowKey()));
      if (page.next().isEmpty()) {
        return keys;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  static List<TableEntity> fill(TableService service) {
    service.createTable("goods");
    TableClient table = service.tableClient("goods");
    List<TableEntity> stored = new ArrayList<>();
    Instant base = Instant.parse("2024-01-01T00:00:00Z");
    for (int p = 0; p < ENTITIES / 100; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < 100; r++) {
        int n = p * 100 + r;
        TableEntity.Builder entity =
            TableEntity.builder(String.format("p%02d", p), String.format("r%03d", r))
                .put("Category", "c" + n % 50)
                .put("Kind", n % 100 == 0 ? "rare" : "common")
                .put("Stamp", base.plusSeconds(n))
                .put("Description", DESCRIPTION);
        // most n are Int32; some Int64 and Double, which Int32 literals match too
        if (n % 10 == 3) {
          entity.put("n", (long) n);
        } else if (n % 10 == 4) {
          entity.put("n", n + 0.5);
        } else {
          entity.put("n", n);
        }
        batch.add(TableOperation.insert(entity.build()));
      }
      table.submitTransaction(batch);
    }
    EntityQuery query = EntityQuery.all();
    while (true) {
      EntityPage page = table.query(query);
      stored.addAll(page.entities());
      if (page.next().isEmpty()) {
        return stored;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  private static StoreSettings settings(TestDatabase database, String account) {
    return StoreSettings.onDataSource(database.dataSource(), account);
  }

  private static CursorScan cursorScan(
      Store store, IndexedTable table, FilterExpression expression) {
    FilterTranslator translator = new FilterTranslator(store.dialect);
    return new CursorScan(
        new ScanRequest(
            store,
            QueryLimits.SERVICE,
            table.id(),
            translator.entities(expression),
            translator.keyRange(expression),
            new IndexCandidates(table.ready(), store.indexBuilder, translator).of(expression),
            null));
  }

  /** The plan of the query as a declared cursor, which is how the scan runs it. */
  static String explainCursor(DSLContext sql, ResultQuery<?> query) {
    return sql
        .fetch(
            "EXPLAIN DECLARE explained NO SCROLL CURSOR FOR " + query.getSQL(),
            query.getBindValues().toArray())
        .stream()
        .map(row -> row.get(0, String.class))
        .collect(Collectors.joining("\n"));
  }
}
