package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityQuery;
import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TransactionFailedException;
import dev.trestle.testing.DatabaseTest;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

class TransactionTest {

  private static TableClient table(TableService service) {
    service.createTable("batch");
    TableClient table = service.tableClient("batch");
    table.insert(TableEntity.builder("p", "existing").put("v", 1).build());
    table.insert(TableEntity.builder("p", "doomed").put("v", 1).build());
    return table;
  }

  private static TableEntity entity(String rowKey, int v) {
    return TableEntity.builder("p", rowKey).put("v", v).build();
  }

  private static void assertFailsAt(int index, TableErrorCode code, ThrowingCallable call) {
    assertThat(assertFails(code, call))
        .isInstanceOfSatisfying(
            TransactionFailedException.class,
            e -> {
              assertThat(e.failedIndex()).isEqualTo(index);
              assertThat(e.getMessage()).startsWith(index + ":");
            });
  }

  private static List<String> rowKeys(TableClient table) {
    return table.query(EntityQuery.all()).entities().stream().map(TableEntity::rowKey).toList();
  }

  @DatabaseTest
  void everyKindOfOperationInOneTransaction(TableService service) {
    TableClient table = table(service);
    String etag = table.get("p", "existing").etag();
    List<TableEntity> results =
        table.submitTransaction(
            List.of(
                TableOperation.insert(entity("new", 1)),
                TableOperation.merge(
                    TableEntity.builder("p", "existing").put("w", 2).build(), etag),
                TableOperation.upsertReplace(entity("replaced", 3)),
                TableOperation.upsertMerge(entity("merged", 4)),
                TableOperation.delete("p", "doomed", "*")));

    assertThat(results).hasSize(5);
    assertThat(results.get(0)).isEqualTo(table.get("p", "new"));
    assertThat(results.get(1).properties()).containsOnlyKeys("v", "w");
    assertThat(results.get(1)).isEqualTo(table.get("p", "existing"));
    assertThat(results.get(4).etag()).isNull();
    assertThat(rowKeys(table)).containsExactly("existing", "merged", "new", "replaced");
  }

  @DatabaseTest
  void aFailingOperationRollsBackTheWholeTransactionAndNamesItsIndex(TableService service) {
    TableClient table = table(service);
    assertFailsAt(
        2,
        TableErrorCode.ENTITY_ALREADY_EXISTS,
        () ->
            table.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)),
                    TableOperation.delete("p", "doomed", "*"),
                    TableOperation.insert(entity("existing", 1)),
                    TableOperation.insert(entity("b", 1)))));
    assertThat(rowKeys(table)).containsExactly("doomed", "existing");
  }

  @DatabaseTest
  void conditionFailuresNameTheirIndex(TableService service) {
    TableClient table = table(service);
    String stale = table.get("p", "existing").etag();
    table.update(entity("existing", 2), "*");
    assertFailsAt(
        1,
        TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
        () ->
            table.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)),
                    TableOperation.update(entity("existing", 3), stale))));
    assertFailsAt(
        1,
        TableErrorCode.RESOURCE_NOT_FOUND,
        () ->
            table.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)),
                    TableOperation.merge(entity("missing", 3), "*"))));
    assertThat(rowKeys(table)).containsExactly("doomed", "existing");
    assertThat(table.get("p", "existing").property("v")).contains(PropertyValue.of(2));
  }

  @DatabaseTest
  void invalidEntitiesFailBeforeAnythingIsWritten(TableService service) {
    TableClient table = table(service);
    assertFailsAt(
        1,
        TableErrorCode.PROPERTY_NAME_INVALID,
        () ->
            table.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)),
                    TableOperation.insert(
                        TableEntity.builder("p", "b").put("bad-name", 1).build()))));
    assertThat(rowKeys(table)).containsExactly("doomed", "existing");
  }

  @DatabaseTest
  void allOperationsMustShareThePartition(TableService service) {
    TableClient table = table(service);
    assertFailsAt(
        2,
        TableErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS,
        () ->
            table.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)),
                    TableOperation.insert(entity("b", 1)),
                    TableOperation.insert(TableEntity.builder("q", "c").build()))));
  }

  @DatabaseTest
  void eachEntityAtMostOnce(TableService service) {
    TableClient table = table(service);
    assertFailsAt(
        2,
        TableErrorCode.INVALID_DUPLICATE_ROW,
        () ->
            table.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)),
                    TableOperation.insert(entity("b", 1)),
                    TableOperation.delete("p", "a", "*"))));
  }

  @DatabaseTest
  void aHundredOperationsAtMost(TableService service) {
    TableClient table = table(service);
    List<TableOperation> operations = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      operations.add(TableOperation.insert(entity("r" + i, i)));
    }
    assertThat(table.submitTransaction(operations)).hasSize(100);
    operations.add(TableOperation.insert(entity("r100", 100)));
    assertFails(TableErrorCode.INVALID_INPUT, () -> table.submitTransaction(operations));
    assertThat(table.query(EntityQuery.all()).entities()).hasSize(102);
  }

  @DatabaseTest
  void fourMebibytesAtMost(TableService service) {
    TableClient table = table(service);
    List<TableOperation> operations = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      TableEntity.Builder big = TableEntity.builder("p", "big" + i);
      for (int j = 0; j < 12; j++) {
        big.put("b" + j, new byte[64 * 1024]);
      }
      operations.add(TableOperation.insert(big.build()));
    }
    assertFails(TableErrorCode.REQUEST_BODY_TOO_LARGE, () -> table.submitTransaction(operations));
    assertThat(rowKeys(table)).containsExactly("doomed", "existing");
  }

  @DatabaseTest
  void aMissingTableFailsAtIndexZero(TableService service) {
    TableClient ghost = service.tableClient("ghost");
    assertFailsAt(
        0,
        TableErrorCode.TABLE_NOT_FOUND,
        () ->
            ghost.submitTransaction(
                List.of(
                    TableOperation.insert(entity("a", 1)), TableOperation.insert(entity("b", 1)))));
  }

  @DatabaseTest
  void anEmptyTransactionDoesNothing(TableService service) {
    assertThat(table(service).submitTransaction(List.of())).isEmpty();
  }
}
