package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

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
              text -> assertThat(text).startsWith("declare ").contains("?").doesNotContain("'p"));
    }
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
