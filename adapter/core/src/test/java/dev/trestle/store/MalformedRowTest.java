package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.HandWrittenRows;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row written by SQL in a form Trestle cannot read fails the read that meets it with
 * InternalError naming the table, keys and what is wrong, never with an unexplained failure; the
 * rest of the table stays readable.
 */
class MalformedRowTest {
  /** 2023-11-14, in 100 ns ticks since 1970. */
  static final long TICKS = 17_000_000_000_000_000L;

  /** Each malformed properties document and the words its error says. */
  static Map<String, String> malformations() {
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("[1, 2]", "expected START_OBJECT");
    cases.put("{\"A\": \"x\"}", "expected START_ARRAY");
    cases.put("{\"A\": [\"z\", 1, 0]}", "unknown type tag 'z'");
    cases.put("{\"A\": [\"t\", \"yesterday\", 0]}", "'A' of type Edm.DateTime holds the string");
    cases.put("{\"A\": [\"t\", 4000000000000000000, 0]}", "'A' of type Edm.DateTime holds");
    cases.put("{\"A\": [\"i\", 3000000000, 0]}", "'A' of type Edm.Int32 holds 3000000000");
    cases.put("{\"A\": [\"l\", \"12\", 0]}", "'A' of type Edm.Int64 holds the string \"12\"");
    cases.put("{\"A\": [\"b\", \"yes\", 0]}", "'A' of type Edm.Boolean holds");
    cases.put("{\"A\": [\"d\", \"one\", 0]}", "'A' of type Edm.Double holds");
    cases.put("{\"A\": [\"g\", \"not-a-guid\", 0]}", "'A' of type Edm.Guid holds");
    cases.put("{\"A\": [\"x\", \"zz\", 0]}", "'A' of type Edm.Binary holds");
    cases.put("{\"A\": [\"s\"]}", "'A' of type Edm.String holds no value");
    return cases;
  }

  @DatabaseTest
  void eachMalformedRowFailsItsReadsWithInternalErrorNamingTheRow(
      TableService service, TestDatabase database) throws Exception {
    service.createTable("things");
    TableClient things = service.tableClient("things");
    things.insert(TableEntity.builder("p", "a").put("A", 1).build());
    List<String> failures = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, String> malformed : malformations().entrySet()) {
      String rowKey = "bad-" + i++;
      HandWrittenRows.insert(
          database, service.accountName(), "things", "p", rowKey, TICKS, malformed.getKey());
      for (Runnable read :
          List.<Runnable>of(
              () -> things.get("p", rowKey),
              () -> things.query(EntityQuery.filter("RowKey eq '" + rowKey + "'")).entities())) {
        assertThat(catchThrowable(read::run))
            .as(malformed.getKey())
            .isInstanceOfSatisfying(
                TableException.class,
                e -> {
                  assertThat(e.errorCode()).isEqualTo(TableErrorCode.INTERNAL_ERROR);
                  failures.add(e.getMessage());
                })
            .hasMessageStartingWith(
                "The stored entity in table 'things', PartitionKey 'p', RowKey '"
                    + rowKey
                    + "' is malformed: ")
            .hasMessageContaining(malformed.getValue())
            .hasMessageEndingWith("fix or delete the row in SQL (see sql/README.md).");
      }
    }
    assertThat(failures).hasSize(2 * malformations().size());
    assertThat(things.get("p", "a").properties()).containsOnlyKeys("A");
    assertThat(things.query(EntityQuery.filter("RowKey eq 'a'")).entities()).hasSize(1);
  }

  @DatabaseTest
  void aVersionOutsideTheDateTimeRangeIsMalformed(TableService service, TestDatabase database)
      throws Exception {
    service.createTable("things");
    HandWrittenRows.insert(
        database, service.accountName(), "things", "p", "old", -200_000_000_000_000_000L, "{}");
    assertThatThrownBy(() -> service.tableClient("things").get("p", "old"))
        .isInstanceOf(TableException.class)
        .hasMessageContaining(
            "RowKey 'old' is malformed: its ticks -200000000000000000 are outside");
  }

  @DatabaseTest
  void aMergeIntoAMalformedRowFailsNamingItAndChangesNothing(
      TableService service, TestDatabase database) throws Exception {
    service.createTable("things");
    HandWrittenRows.insert(
        database, service.accountName(), "things", "p", "bad", TICKS, "{\"A\": [\"z\", 1, 0]}");
    TableClient things = service.tableClient("things");
    TableEntity change = TableEntity.builder("p", "bad").put("B", 2).build();
    for (Runnable write :
        List.<Runnable>of(
            () -> things.merge(change, "*"),
            () ->
                things.submitTransaction(List.of(dev.trestle.TableOperation.merge(change, "*"))))) {
      assertThat(catchThrowable(write::run))
          .isInstanceOf(TableException.class)
          .hasMessageStartingWith(
              "The stored entity in table 'things', PartitionKey 'p', RowKey 'bad' is malformed:"
                  + " unknown type tag 'z'");
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void propertiesThatAreNotJsonAreMalformedOnH2(TableService service, TestDatabase database)
      throws Exception {
    service.createTable("things");
    HandWrittenRows.insert(
        database, service.accountName(), "things", "p", "text", TICKS, "{\"A\": [\"s\", \"x\"");
    assertThatThrownBy(() -> service.tableClient("things").get("p", "text"))
        .isInstanceOf(TableException.class)
        .hasMessageContaining("RowKey 'text' is malformed: ");
  }
}
