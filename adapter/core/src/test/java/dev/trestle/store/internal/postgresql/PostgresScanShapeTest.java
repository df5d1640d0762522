package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanStatements;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.database.StoredPage;
import dev.trestle.store.internal.read.EntityReader;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * PostgreSQL only (the page cursor): scans whose filters compare only the keys render their
 * statement once per shape, and a later scan of the same shape, bound with its own values (filter,
 * granted key range, resume point), reads exactly its own entities.
 */
class PostgresScanShapeTest {

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void keyScansOfOneShapeShareOneRenderedStatementAndBindTheirOwnValues(TestDatabase database) {
    String account = TestDatabase.newAccount();
    StoreSettings settings = StoreSettings.onDataSource(database.dataSource(), account);
    try (Store store = Store.open(settings, QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings)) {
      service.createTable("shapes");
      TableClient table = service.tableClient("shapes");
      for (int p = 0; p < 3; p++) {
        List<TableOperation> batch = new ArrayList<>();
        for (int r = 0; r < 30; r++) {
          batch.add(
              TableOperation.insert(
                  TableEntity.builder("p" + p, String.format("r%03d", r)).put("n", r).build()));
        }
        table.submitTransaction(batch);
      }
      EntityReader reader = new EntityReader(store, account, "shapes");
      for (int round = 0; round < 2; round++) {
        // each shape twice with other values: the second binds into the first's text
        for (int i = 0; i < 3; i++) {
          int p = i;
          String pk = "p" + p;
          String other = "p" + ((p + 1) % 3);
          check(reader, EntityQuery.filter("PartitionKey eq '" + pk + "'"), (k, r) -> k.equals(pk));
          check(
              reader,
              EntityQuery.filter(
                  "PartitionKey eq '" + pk + "' and RowKey ge 'r010' and RowKey lt 'r02" + p + "'"),
              (k, r) -> k.equals(pk) && r.compareTo("r010") >= 0 && r.compareTo("r02" + p) < 0);
          check(
              reader,
              EntityQuery.filter(
                  "(PartitionKey eq '"
                      + pk
                      + "' or PartitionKey eq '"
                      + other
                      + "') and not (RowKey lt 'r00"
                      + (p + 5)
                      + "') and true"),
              (k, r) -> (k.equals(pk) || k.equals(other)) && r.compareTo("r00" + (p + 5)) >= 0);
          check(
              reader,
              EntityQuery.all().withKeyRange(new EntityQuery.KeyRange(pk, "r003", pk, "r02" + p)),
              (k, r) -> k.equals(pk) && r.compareTo("r003") >= 0 && r.compareTo("r02" + p) <= 0);
          check(
              reader,
              EntityQuery.filter("RowKey gt 'r02" + p + "'")
                  .withKeyRange(new EntityQuery.KeyRange(other, null, null, null)),
              (k, r) -> k.compareTo(other) >= 0 && r.compareTo("r02" + p) > 0);
          check(reader, EntityQuery.filter("PartitionKey eq 1"), (k, r) -> false);
        }
        check(reader, EntityQuery.all(), (k, r) -> true);
      }
      // every shape was rendered, none fell back to rendering per page
      assertThat(store.scanStatements.rendered().values())
          .isNotEmpty()
          .doesNotContain(ScanStatements.PER_QUERY)
          .allSatisfy(
              text -> assertThat(text).startsWith("select ").contains("?").doesNotContain("'p"));
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void propertyScansOfOneShapeShareOneRenderedStatementAndBindTheirOwnValues(
      TestDatabase database) {
    String account = TestDatabase.newAccount();
    StoreSettings settings = StoreSettings.onDataSource(database.dataSource(), account);
    try (Store store = Store.open(settings, QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings)) {
      for (String name : List.of("plain", "indexed", "indexedtoo")) {
        service.createTable(name);
        TableClient table = service.tableClient(name);
        // the second indexed table lacks partition p2
        for (int p = 0; p < (name.equals("indexedtoo") ? 2 : 3); p++) {
          List<TableOperation> batch = new ArrayList<>();
          for (int r = 0; r < 30; r++) {
            batch.add(
                TableOperation.insert(
                    TableEntity.builder("p" + p, String.format("r%03d", r))
                        .put("n", r)
                        .put("s", "s" + (r % 5))
                        .put("d", r / 2.0)
                        .put("b", r % 2 == 0)
                        .put("l", (long) r * 1_000_000_007L)
                        .build()));
          }
          table.submitTransaction(batch);
        }
      }
      for (String name : List.of("indexed", "indexedtoo")) {
        service.createIndex(name, "n", EdmType.INT32);
        service.createIndex(name, "s", EdmType.STRING);
      }
      // the same filters in two tables with the same indexes: each reads its own rows
      for (String name :
          List.of("plain", "indexed", "indexedtoo", "plain", "indexed", "indexedtoo")) {
        EntityReader reader = new EntityReader(store, account, name);
        BiPredicate<String, String> stored =
            (k, r) -> !name.equals("indexedtoo") || !k.equals("p2");
        BiConsumer<EntityQuery, BiPredicate<String, String>> check =
            (query, wanted) -> check(reader, query, wanted.and(stored));
        // each shape with other values: the later ones bind into the first one's text
        for (int v = 3; v < 6; v++) {
          int value = v;
          check.accept(EntityQuery.filter("n eq " + v), (k, r) -> number(r) == value);
          check.accept(
              EntityQuery.filter("s eq 's" + v % 5 + "' and n gt " + 2 * v),
              (k, r) -> number(r) % 5 == value % 5 && number(r) > 2 * value);
          check.accept(
              EntityQuery.filter("PartitionKey eq 'p" + v % 3 + "' and (n lt " + v + " or b)"),
              (k, r) -> k.equals("p" + value % 3) && (number(r) < value || number(r) % 2 == 0));
          check.accept(
              EntityQuery.filter("d ge " + v + ".5 and l ne " + (2 * v + 2) * 1_000_000_007L + "L"),
              (k, r) -> number(r) / 2.0 >= value + 0.5 && number(r) != 2 * value + 2);
          check.accept(
              EntityQuery.filter("s gt 's" + (v - 2) + "' and not (n ge " + 3 * v + ")"),
              (k, r) -> number(r) % 5 > value - 2 && number(r) < 3 * value);
        }
      }
      // walks, and the planner's estimates of the index's candidates; the same filter in another
      // table has its own candidate walk (its table id is inline)
      assertThat(store.scanStatements.rendered())
          .isNotEmpty()
          .doesNotContainValue(ScanStatements.PER_QUERY)
          .allSatisfy(
              (shape, text) ->
                  assertThat(text)
                      .startsWith(shape.startsWith("estimate ") ? "explain " : "select ")
                      .contains("?")
                      .doesNotContainPattern("'s[0-9]'"))
          // named without their values: one shape serves them all
          .allSatisfy((shape, text) -> assertThat(shape).doesNotContainPattern("'s[0-9]'"))
          .anySatisfy((shape, text) -> assertThat(shape).contains("through candidates"))
          .anySatisfy((shape, text) -> assertThat(shape).startsWith("estimate "));
    }
  }

  /** The number of a row key {@code rNNN}. */
  private static int number(String rowKey) {
    return Integer.parseInt(rowKey.substring(1));
  }

  /** Reads every page of the query, 7 entities per page, and compares the keys with the wanted. */
  private static void check(
      EntityReader reader, EntityQuery query, BiPredicate<String, String> wanted) {
    List<String> read = new ArrayList<>();
    EntityQuery page = query.withTop(7);
    while (true) {
      StoredPage stored = reader.query(page);
      for (StoredEntity entity : stored.entities()) {
        read.add(entity.partitionKey() + "/" + entity.rowKey());
      }
      if (stored.next().isEmpty()) {
        break;
      }
      page = page.withContinuation(stored.next().get());
    }
    List<String> expected = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      for (int r = 0; r < 30; r++) {
        String rowKey = String.format("r%03d", r);
        if (wanted.test("p" + p, rowKey)) {
          expected.add("p" + p + "/" + rowKey);
        }
      }
    }
    assertThat(read).as(query.toString()).isEqualTo(expected);
  }
}
