package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.IndexedProperty;
import dev.trestle.PropertyIndexInfo;
import dev.trestle.PropertyIndexInfo.State;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * Declared property indexes through the library: declaring, listing and dropping, what is refused,
 * and answers that stay the same while indexes come and go, on H2 (declarations only) and
 * PostgreSQL (built indexes).
 */
class PropertyIndexTest {

  @DatabaseTest
  void anIndexIsDeclaredOnceListedWithItsStateAndDropped(
      TableService service, TestDatabase database) {
    service.createTable("Goods");
    boolean builds = database.kind() != TestDatabase.Kind.H2;

    PropertyIndexInfo created = service.createIndex("goods", "Price", EdmType.INT32);
    assertThat(created.table()).isEqualTo("Goods");
    assertThat(created.property()).isEqualTo("Price");
    assertThat(created.type()).isEqualTo(EdmType.INT32);
    assertThat(created.state()).isEqualTo(builds ? State.READY : State.NOT_BUILT);
    assertThat(created.sizeBytes().isPresent()).isEqualTo(builds);

    assertThat(service.createIndex("Goods", "Price", EdmType.DOUBLE))
        .as("Int32, Int64 and Double share one index of numbers")
        .isEqualTo(created);
    service.createIndex("Goods", "Price", EdmType.STRING);
    service.createIndex("Goods", "Timestamp", EdmType.DATE_TIME);

    assertThat(service.listIndexes("GOODS"))
        .extracting(PropertyIndexInfo::property, PropertyIndexInfo::type)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Price", EdmType.INT32),
            org.assertj.core.groups.Tuple.tuple("Price", EdmType.STRING),
            org.assertj.core.groups.Tuple.tuple("Timestamp", EdmType.DATE_TIME));

    assertThat(service.dropIndex("Goods", "Price", EdmType.INT64)).isTrue();
    assertThat(service.dropIndex("Goods", "Price", EdmType.INT32)).isFalse();
    assertThat(service.listIndexes("Goods")).hasSize(2);
  }

  @DatabaseTest
  void anIndexOverSeveralPropertiesIsDeclaredListedAndDroppedAsOneIndex(
      TableService service, TestDatabase database) {
    service.createTable("Goods");
    boolean builds = database.kind() != TestDatabase.Kind.H2;
    List<IndexedProperty> properties =
        List.of(
            new IndexedProperty("Category", EdmType.STRING),
            new IndexedProperty("Price", EdmType.INT32),
            new IndexedProperty("Timestamp", EdmType.DATE_TIME));

    PropertyIndexInfo created = service.createIndex("goods", properties);
    assertThat(created.property()).isEqualTo("Category");
    assertThat(created.type()).isEqualTo(EdmType.STRING);
    assertThat(created.then()).containsExactlyElementsOf(properties.subList(1, 3));
    assertThat(created.properties()).containsExactlyElementsOf(properties);
    assertThat(created.state()).isEqualTo(builds ? State.READY : State.NOT_BUILT);
    assertThat(
            service.createIndex(
                "Goods",
                List.of(
                    new IndexedProperty("Category", EdmType.STRING),
                    new IndexedProperty("Price", EdmType.DOUBLE),
                    new IndexedProperty("Timestamp", EdmType.DATE_TIME))))
        .as("declared already: Int32 and Double are one kind of value")
        .isEqualTo(created);
    assertThat(service.listIndexes("Goods")).containsExactly(created);

    // one index led by a property and kind: it serves what one over Category alone would
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> service.createIndex("Goods", "Category", EdmType.STRING));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () ->
            service.createIndex(
                "Goods",
                List.of(
                    new IndexedProperty("Category", EdmType.STRING),
                    new IndexedProperty("Price", EdmType.STRING))));
    // led by another property (or kind), an index may hold the same ones further on
    service.createIndex(
        "Goods",
        List.of(
            new IndexedProperty("Price", EdmType.INT64),
            new IndexedProperty("Category", EdmType.STRING)));
    service.createIndex("Goods", "Category", EdmType.INT32);
    assertThat(service.listIndexes("Goods")).hasSize(3);

    assertThat(service.dropIndex("Goods", properties.subList(0, 2)))
        .as("the further properties given are not the index's")
        .isFalse();
    assertThat(service.dropIndex("Goods", properties)).isTrue();
    assertThat(service.dropIndex("Goods", "Price", EdmType.DOUBLE))
        .as("by its first property alone, whatever follows")
        .isTrue();
    assertThat(service.listIndexes("Goods"))
        .extracting(PropertyIndexInfo::property, PropertyIndexInfo::type, PropertyIndexInfo::then)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Category", EdmType.INT32, List.of()));
  }

  @DatabaseTest
  void indexesOverSeveralPropertiesRefuseKeysRepeatsAndTooMany(TableService service) {
    service.createTable("Goods");
    IndexedProperty a = new IndexedProperty("A", EdmType.STRING);
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> service.createIndex("Goods", List.<IndexedProperty>of()));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () ->
            service.createIndex(
                "Goods", List.of(a, new IndexedProperty("RowKey", EdmType.STRING))));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> service.createIndex("Goods", List.of(a, new IndexedProperty("A", EdmType.INT32))));
    List<IndexedProperty> nine = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      nine.add(new IndexedProperty("P" + i, EdmType.INT32));
    }
    assertFails(TableErrorCode.INVALID_INPUT, () -> service.createIndex("Goods", nine));
    assertFails(
        TableErrorCode.PROPERTY_NAME_INVALID,
        () -> service.createIndex("Goods", List.of(a, new IndexedProperty("b:c", EdmType.STRING))));
    assertThat(service.listIndexes("Goods")).isEmpty();
  }

  @DatabaseTest
  void keysWrongTypesBadNamesAndMissingTablesAreRefused(TableService service) {
    service.createTable("Goods");
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> service.createIndex("Goods", "PartitionKey", EdmType.STRING));
    assertFails(
        TableErrorCode.INVALID_INPUT, () -> service.createIndex("Goods", "RowKey", EdmType.STRING));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> service.createIndex("Goods", "Timestamp", EdmType.INT64));
    assertFails(
        TableErrorCode.PROPERTY_NAME_INVALID,
        () -> service.createIndex("Goods", "1st", EdmType.STRING));
    assertFails(
        TableErrorCode.TABLE_NOT_FOUND, () -> service.createIndex("Nope", "A", EdmType.STRING));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> service.listIndexes("Nope"));
    assertFails(
        TableErrorCode.TABLE_NOT_FOUND, () -> service.dropIndex("Nope", "A", EdmType.STRING));
  }

  @DatabaseTest
  void deletingATableDropsItsIndexesAndANewTableOfTheSameNameHasNone(
      TableService service, TestDatabase database) {
    service.createTable("Goods");
    service.createIndex("Goods", "Price", EdmType.INT32);
    service.deleteTable("Goods");
    service.createTable("Goods");
    assertThat(service.listIndexes("Goods")).isEmpty();
    if (database.kind() != TestDatabase.Kind.H2) {
      Integer left =
          DSL.using(database.dataSource(), SQLDialect.POSTGRES)
              .fetchOne(
                  "select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                      + " where c.relkind = 'i' and c.relname like 'trestle_px_%'"
                      + " and n.nspname = current_schema()"
                      + " and not exists (select 1 from trestle_property_index p"
                      + " where p.index_name = c.relname)")
              .get(0, Integer.class);
      assertThat(left).as("indexes without a declaration").isZero();
    }
  }

  @DatabaseTest
  void longStringsAndBinariesCompareExactlyThroughTheirIndexedPrefix(TableService service) {
    service.createTable("Texts");
    TableClient table = service.tableClient("Texts");
    String common = "x".repeat(300);
    List<String> values = List.of(common + "a", common + "b", common, common + "c", "w", "y");
    for (int i = 0; i < values.size(); i++) {
      table.insert(
          TableEntity.builder("p", "r" + i)
              .put("S", values.get(i))
              .put("B", values.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8))
              .build());
    }
    List<String> filters =
        List.of(
            "S eq '" + common + "b'",
            "S ne '" + common + "b'",
            "S gt '" + common + "a'",
            "S ge '" + common + "a'",
            "S lt '" + common + "b'",
            "S le '" + common + "'",
            "S ne 'w'",
            "B eq X'" + hex(common + "c") + "'",
            "B gt X'" + hex(common + "a") + "'",
            "B lt X'" + hex(common + "a") + "'");
    List<List<String>> before = new ArrayList<>();
    for (String filter : filters) {
      before.add(keys(table, filter));
    }
    assertThat(before.get(0)).containsExactly("r1");
    assertThat(before.get(1)).containsExactly("r0", "r2", "r3", "r4", "r5");
    assertThat(before.get(2)).containsExactly("r1", "r3", "r5");
    service.createIndex("Texts", "S", EdmType.STRING);
    service.createIndex("Texts", "B", EdmType.BINARY);
    for (int i = 0; i < filters.size(); i++) {
      assertThat(keys(table, filters.get(i))).as(filters.get(i)).isEqualTo(before.get(i));
    }
  }

  private static String hex(String text) {
    return java.util.HexFormat.of()
        .formatHex(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static List<String> keys(TableClient table, String filter) {
    List<String> keys = new ArrayList<>();
    EntityQuery query = EntityQuery.filter(filter);
    while (true) {
      EntityPage page = table.query(query);
      page.entities().forEach(e -> keys.add(e.rowKey()));
      if (page.next().isEmpty()) {
        return keys;
      }
      query = query.withContinuation(page.next().get());
    }
  }
}
