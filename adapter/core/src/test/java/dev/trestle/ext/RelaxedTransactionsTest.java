package dev.trestle.ext;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.RelaxedTransactions;
import dev.trestle.ServiceExtensions;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TableWrite;
import dev.trestle.TransactionFailedException;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;

class RelaxedTransactionsTest {

  private static TableService relaxed(TestDatabase database) {
    return database.newServiceBuilder().relaxedTransactions(true).build();
  }

  private static TableEntity entity(String partitionKey, String rowKey, int n) {
    return TableEntity.builder(partitionKey, rowKey).put("N", n).build();
  }

  private static List<TableWrite> inserts(String table, String partitionKey, int count) {
    List<TableWrite> writes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      writes.add(
          new TableWrite(
              table, TableOperation.insert(entity(partitionKey, String.format("r%04d", i), i))));
    }
    return writes;
  }

  private static long count(TableService service, String table) {
    return service.tableClient(table).extensions().count((String) null);
  }

  @DatabaseTest
  void holdsMoreThanAHundredOperationsOfOnePartition(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      service.createTable("big");

      List<TableEntity> stored = service.extensions().submitTransaction(inserts("big", "p", 250));

      assertThat(stored).hasSize(250);
      assertThat(stored.get(249).rowKey()).isEqualTo("r0249");
      assertThat(stored.get(249).etag()).isNotNull();
      assertThat(count(service, "big")).isEqualTo(250);
    }
  }

  @DatabaseTest
  @MultiShardWrites("a relaxed transaction writes several partitions in one transaction")
  void spansPartitionsWithEveryKindOfOperation(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      service.createTable("items");
      TableClient items = service.tableClient("items");
      TableEntity old = items.insert(entity("p1", "old", 1));
      items.insert(entity("p2", "gone", 2));

      List<TableEntity> stored =
          service
              .extensions()
              .submitTransaction(
                  "items",
                  List.of(
                      TableOperation.insert(entity("p3", "new", 3)),
                      TableOperation.update(entity("p1", "old", 10), old.etag()),
                      TableOperation.delete("p2", "gone", "*"),
                      TableOperation.upsertMerge(entity("p0", "merged", 4))));

      assertThat(stored)
          .extracting(TableEntity::rowKey)
          .containsExactly("new", "old", "gone", "merged");
      assertThat(items.get("p1", "old").properties().get("N").value()).isEqualTo(10);
      assertThat(items.extensions().exists("p2", "gone")).isFalse();
      assertThat(items.extensions().exists("p3", "new")).isTrue();
      assertThat(count(service, "items")).isEqualTo(3);
    }
  }

  @DatabaseTest
  @MultiShardWrites("a relaxed transaction writes partitions of two tables in one transaction")
  void spansTablesOfTheAccount(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      service.createTable("orders");
      service.createTable("Stock");

      service
          .extensions()
          .submitTransaction(
              List.of(
                  new TableWrite("orders", TableOperation.insert(entity("o1", "1", 1))),
                  new TableWrite("stock", TableOperation.upsertReplace(entity("s1", "apple", 9)))));

      assertThat(count(service, "orders")).isEqualTo(1);
      assertThat(service.tableClient("Stock").get("s1", "apple").properties().get("N").value())
          .isEqualTo(9);
    }
  }

  /** Tables share a partition key's shard on a database distributed by partition key. */
  @DatabaseTest
  void spansTablesWithinOnePartitionKeyOnOneShard(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      service.createTable("left");
      service.createTable("right");
      List<TableWrite> writes = new ArrayList<>(inserts("left", "same", 60));
      writes.addAll(inserts("right", "same", 60));

      service.extensions().submitTransaction(writes);

      assertThat(count(service, "left") + count(service, "right")).isEqualTo(120);
    }
  }

  @DatabaseTest
  @MultiShardWrites("the partitions before the failing one are written, then rolled back")
  void aFailureRollsBackEverythingAndNamesTheFailingOperation(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      service.createTable("alpha");
      service.createTable("beta");
      service.tableClient("alpha").insert(entity("p9", "taken", 0));
      List<TableWrite> writes = new ArrayList<>(inserts("alpha", "p0", 150));
      writes.addAll(inserts("beta", "p1", 50));
      writes.add(new TableWrite("alpha", TableOperation.insert(entity("p9", "taken", 1))));

      TransactionFailedException failed =
          (TransactionFailedException)
              assertFails(
                  TableErrorCode.ENTITY_ALREADY_EXISTS,
                  () -> service.extensions().submitTransaction(writes));

      assertThat(failed.failedIndex()).isEqualTo(200);
      assertThat(failed.getMessage()).startsWith("200:");
      assertThat(count(service, "alpha")).isEqualTo(1);
      assertThat(count(service, "beta")).isZero();
    }
  }

  @DatabaseTest
  @MultiShardWrites("the first table's partition is written, then rolled back")
  void aMissingTableIsNamedByItsFirstOperation(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      service.createTable("here");
      List<TableWrite> writes = new ArrayList<>(inserts("here", "p", 3));
      writes.add(new TableWrite("nowhere", TableOperation.insert(entity("q", "1", 1))));

      TransactionFailedException failed =
          (TransactionFailedException)
              assertFails(
                  TableErrorCode.TABLE_NOT_FOUND,
                  () -> service.extensions().submitTransaction(writes));

      assertThat(failed.failedIndex()).isEqualTo(3);
      assertThat(count(service, "here")).isZero();
    }
  }

  @DatabaseTest
  void refusesWhatExceedsTheOperatorsBoundsOrRepeatsAnEntity(TestDatabase database) {
    try (TableService service =
        database
            .newServiceBuilder()
            .relaxedTransactions(new RelaxedTransactions(200, 20_000))
            .build()) {
      service.createTable("bounded");
      ServiceExtensions extensions = service.extensions();

      assertFails(
          TableErrorCode.INVALID_INPUT,
          () -> extensions.submitTransaction(inserts("bounded", "p", 201)));
      List<TableWrite> large = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        large.add(
            new TableWrite(
                "bounded",
                TableOperation.insert(
                    TableEntity.builder("p", "r" + i).put("S", "x".repeat(4000)).build())));
      }
      assertFails(TableErrorCode.REQUEST_BODY_TOO_LARGE, () -> extensions.submitTransaction(large));
      List<TableWrite> repeated = new ArrayList<>(inserts("bounded", "p", 3));
      repeated.add(new TableWrite("BOUNDED", TableOperation.delete("p", "r0001", "*")));
      TransactionFailedException failed =
          (TransactionFailedException)
              assertFails(
                  TableErrorCode.INVALID_DUPLICATE_ROW,
                  () -> extensions.submitTransaction(repeated));
      assertThat(failed.failedIndex()).isEqualTo(3);
      assertThat(count(service, "bounded")).isZero();
    }
  }

  @DatabaseTest
  void theStandardTransactionKeepsAzuresLimitsEitherWay(
      TableService standard, TestDatabase database) {
    try (TableService relaxed = relaxed(database)) {
      for (TableService service : List.of(standard, relaxed)) {
        service.createTable("limits");
        TableClient limits = service.tableClient("limits");
        List<TableOperation> many =
            inserts("limits", "p", 101).stream().map(TableWrite::operation).toList();
        assertThat(assertFails(TableErrorCode.INVALID_INPUT, () -> limits.submitTransaction(many)))
            .hasMessageContaining("maximum 100 changes");
        assertFails(
            TableErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS,
            () ->
                limits.submitTransaction(
                    List.of(
                        TableOperation.insert(entity("a", "1", 1)),
                        TableOperation.insert(entity("b", "1", 1)))));
        assertThat(limits.extensions().count((String) null)).isZero();
      }
    }
  }

  @DatabaseTest
  void isNotImplementedUnlessTheOperatorEnablesIt(TableService service) {
    service.createTable("plain");

    assertThat(service.extensions().relaxedTransactions()).isEmpty();
    assertThat(
            assertFails(
                TableErrorCode.NOT_IMPLEMENTED,
                () -> service.extensions().submitTransaction(inserts("plain", "p", 1))))
        .hasMessageContaining("--relaxed-transactions on");
    assertThat(service.tableClient("plain").extensions().count((String) null)).isZero();
  }

  @DatabaseTest
  void isNotImplementedWithTheExtensionsOff(TestDatabase database) {
    try (TableService service = database.newServiceWithExtensionsOff()) {
      assertFails(TableErrorCode.NOT_IMPLEMENTED, service::extensions);
    }
    assertThatThrownBy(
            () -> database.newServiceBuilder().extensions(false).relaxedTransactions(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("relaxedTransactions needs the extensions on");
  }
}
