package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

class EntityQueryTest {

  private static TableClient things(TableService service) {
    service.createTable("things");
    TableClient table = service.tableClient("things");
    table.insert(
        TableEntity.builder("a", "1")
            .put("N", 1)
            .put("S", "apple")
            .put("L", 10L)
            .put("D", 1.5)
            .put("B", true)
            .put("T", Instant.parse("2020-01-01T00:00:00.0000001Z"))
            .put("G", UUID.fromString("00000000-0000-0000-0000-000000000001"))
            .put("X", new byte[] {1, 2})
            .build());
    table.insert(
        TableEntity.builder("a", "2")
            .put("N", 2)
            .put("S", "Banana")
            .put("L", Long.MAX_VALUE)
            .put("D", Double.NaN)
            .put("B", false)
            .put("T", Instant.parse("2020-01-01T00:00:00Z"))
            .put("G", UUID.fromString("ffffffff-0000-0000-0000-000000000000"))
            .put("X", new byte[] {(byte) 0xff})
            .build());
    table.insert(TableEntity.builder("b", "1").put("N", "2").put("S", 5).build());
    table.insert(TableEntity.builder("b", "2").build());
    return table;
  }

  private static List<String> keys(TableClient table, String filter) {
    List<String> keys = new ArrayList<>();
    EntityQuery query = EntityQuery.filter(filter);
    while (true) {
      EntityPage page = table.query(query);
      page.entities().forEach(e -> keys.add(e.partitionKey() + e.rowKey()));
      if (page.next().isEmpty()) {
        return keys;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  @DatabaseTest
  void comparisonsOfEachType(TableService service) {
    TableClient t = things(service);
    assertThat(keys(t, "N eq 2")).containsExactly("a2");
    assertThat(keys(t, "N ge 1")).containsExactly("a1", "a2");
    assertThat(keys(t, "S lt 'apple'")).containsExactly("a2");
    assertThat(keys(t, "L eq 9223372036854775807L")).containsExactly("a2");
    assertThat(keys(t, "L lt 11L")).containsExactly("a1");
    assertThat(keys(t, "D gt 1.0")).containsExactly("a1");
    assertThat(keys(t, "B eq true")).containsExactly("a1");
    assertThat(keys(t, "B lt true")).containsExactly("a2");
    assertThat(keys(t, "T gt datetime'2020-01-01T00:00:00Z'")).containsExactly("a1");
    assertThat(keys(t, "G gt guid'00000000-0000-0000-0000-000000000002'")).containsExactly("a2");
    assertThat(keys(t, "X ge X'0102'")).containsExactly("a1", "a2");
    assertThat(keys(t, "X lt binary'02'")).containsExactly("a1");
  }

  @DatabaseTest
  void booleanConstantsCombineWithComparisons(TableService service) {
    TableClient t = things(service);
    assertThat(
            keys(
                t,
                "(true and RowKey eq '1') and ((false or PartitionKey eq 'a') or PartitionKey eq 'x')"))
        .containsExactly("a1");
    assertThat(keys(t, "true")).containsExactly("a1", "a2", "b1", "b2");
    assertThat(keys(t, "false or B eq False")).containsExactly("a2");
    assertThat(keys(t, "not true")).isEmpty();
    assertThat(keys(t, "PartitionKey eq 'b' and not false")).containsExactly("b1", "b2");
  }

  @DatabaseTest
  void missingPropertiesAndOtherTypesNeverMatchEvenWithNe(TableService service) {
    TableClient t = things(service);
    assertThat(keys(t, "N ne 1")).containsExactly("a2");
    assertThat(keys(t, "N ne 1L")).isEmpty();
    assertThat(keys(t, "S ne 'x'")).containsExactly("a1", "a2");
    assertThat(keys(t, "not (N eq 1)")).containsExactly("a2", "b1", "b2");
    assertThat(keys(t, "not (N ne 1)")).containsExactly("a1", "b1", "b2");
    assertThat(keys(t, "PartitionKey eq 1")).isEmpty();
    assertThat(keys(t, "not (Timestamp eq 'x')")).containsExactly("a1", "a2", "b1", "b2");
  }

  @DatabaseTest
  void anInt32LiteralComparesWithInt64AndDoublePropertiesAsAzureDoes(TableService service) {
    TableClient t = things(service);
    assertThat(keys(t, "L gt 5")).containsExactly("a1", "a2");
    assertThat(keys(t, "L eq 10")).containsExactly("a1");
    assertThat(keys(t, "L gt 2147483647")).containsExactly("a2");
    assertThat(keys(t, "D gt 1")).containsExactly("a1");
    assertThat(keys(t, "D lt 2")).containsExactly("a1");
    assertThat(keys(t, "D ne 1")).containsExactly("a1", "a2");
    assertThat(keys(t, "not (D gt 1)")).containsExactly("a2", "b1", "b2");
    assertThat(keys(t, "L eq 10.0")).isEmpty();
    assertThat(keys(t, "N eq 1L")).isEmpty();
    assertThat(keys(t, "N eq 1.0")).isEmpty();
    assertThat(keys(t, "N eq 2")).containsExactly("a2");
  }

  @DatabaseTest
  void nanMatchesOnlyNe(TableService service) {
    TableClient t = things(service);
    assertThat(keys(t, "D ne 1.5")).containsExactly("a2");
    assertThat(keys(t, "D eq NaN")).isEmpty();
    assertThat(keys(t, "D ne NaN")).containsExactly("a1", "a2");
    assertThat(keys(t, "D ge -INF")).containsExactly("a1");
  }

  @DatabaseTest
  void systemProperties(TableService service) {
    TableClient t = things(service);
    assertThat(keys(t, "PartitionKey eq 'a' and RowKey gt '1'")).containsExactly("a2");
    assertThat(keys(t, "PartitionKey ge 'b' or RowKey lt '2'")).containsExactly("a1", "b1", "b2");
    Instant now = Instant.now().plusSeconds(60);
    assertThat(keys(t, "Timestamp lt datetime'" + now + "'")).hasSize(4);
    assertThat(keys(t, "Timestamp gt datetime'" + now + "'")).isEmpty();
  }

  @DatabaseTest
  void selectReturnsOnlyTheNamedPropertiesTheEntityHas(TableService service) {
    TableClient t = things(service);
    EntityPage page =
        t.query(EntityQuery.filter("PartitionKey eq 'b'").withSelect(List.of("S", "Nope")));
    assertThat(page.entities())
        .extracting(TableEntity::properties)
        .containsExactly(java.util.Map.of("S", PropertyValue.of(5)), java.util.Map.of());
    assertThat(page.entities()).allSatisfy(e -> assertThat(e.etag()).isNotNull());
  }

  @DatabaseTest
  void topCapsEachPageAndTheContinuationResumes(TableService service) {
    TableClient t = things(service);
    EntityPage first = t.query(EntityQuery.all().withTop(3));
    assertThat(first.entities()).hasSize(3);
    assertThat(first.next()).isPresent();
    EntityPage second = t.query(EntityQuery.all().withTop(3).withContinuation(first.next().get()));
    assertThat(second.entities()).extracting(TableEntity::rowKey).containsExactly("2");
    assertThat(second.next()).isEmpty();
  }

  @DatabaseTest
  void topOutsideZeroToAThousandIsRejectedAndZeroIsAnEmptyPage(TableService service) {
    TableClient t = things(service);
    EntityPage none = t.query(EntityQuery.all().withTop(0));
    assertThat(none.entities()).isEmpty();
    assertThat(none.next()).isEmpty();
    assertFails(
        TableErrorCode.TABLE_NOT_FOUND,
        () -> service.tableClient("nosuchtable").query(EntityQuery.all().withTop(0)));
    assertFails(
        TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE,
        () -> t.query(EntityQuery.all().withTop(-1)));
    assertFails(
        TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE,
        () -> t.query(EntityQuery.all().withTop(1001)));
  }

  @DatabaseTest
  void aGarbageContinuationIsInvalidInput(TableService service) {
    TableClient t = things(service);
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () ->
            t.query(
                EntityQuery.all()
                    .withContinuation(new EntityQuery.Continuation("nonsense", "1!AA"))));
  }

  @DatabaseTest
  void aBadFilterIsInvalidInput(TableService service) {
    TableClient t = things(service);
    assertFails(TableErrorCode.INVALID_INPUT, () -> t.query(EntityQuery.filter("N eq")));
  }

  @DatabaseTest
  void aThousandIsTheDefaultPageSize(TableService service) {
    service.createTable("many");
    TableClient t = service.tableClient("many");
    List<dev.trestle.TableOperation> batch = new ArrayList<>();
    for (int p = 0; p < 11; p++) {
      batch.clear();
      for (int r = 0; r < 100; r++) {
        batch.add(dev.trestle.TableOperation.insert(TableEntity.builder("p" + p, "r" + r).build()));
      }
      t.submitTransaction(batch);
    }
    EntityPage page = t.query(EntityQuery.all());
    assertThat(page.entities()).hasSize(1000);
    assertThat(page.next()).isPresent();
    assertThat(t.query(EntityQuery.all().withContinuation(page.next().get())).entities())
        .hasSize(100);
  }

  @DatabaseTest
  void queryTablesFiltersOnTableName(TableService service) {
    for (String name : List.of("alpha", "alpine", "beta", "Alps")) {
      service.createTable(name);
    }
    var names =
        service
            .queryTables(
                new dev.trestle.TableQuery("TableName ge 'al' and TableName lt 'am'", null, null))
            .tables()
            .stream()
            .map(dev.trestle.TableInfo::name)
            .toList();
    assertThat(names).containsExactly("alpha", "alpine");
    var exact =
        service.queryTables(new dev.trestle.TableQuery("TableName eq 'Alps'", null, null)).tables();
    assertThat(exact).extracting(dev.trestle.TableInfo::name).containsExactly("Alps");
  }
}
