package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.ChangeFeed;
import dev.trestle.EntityQuery;
import dev.trestle.TableChange;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TransactionFailedException;
import dev.trestle.model.EntitySize;
import dev.trestle.model.TableLimits;
import dev.trestle.testing.DatabaseTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Change sets of inserts only, which PostgreSQL writes as one multi-row statement (and H2 as a
 * batch of single-row ones): the same answers, errors and indexes as any other change set.
 */
class GroupInsertTest {

  private static TableClient table(TableService service) {
    service.createTable("inserts");
    return service.tableClient("inserts");
  }

  private static List<TableOperation> inserts(String partition, int count) {
    List<TableOperation> operations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      operations.add(
          TableOperation.insert(
              TableEntity.builder(partition, String.format("r%03d", i)).put("n", i).build()));
    }
    return operations;
  }

  private static void assertFailsAt(int index, TableErrorCode code, ThrowingCallable call) {
    assertThat(assertFails(code, call))
        .isInstanceOfSatisfying(
            TransactionFailedException.class, e -> assertThat(e.failedIndex()).isEqualTo(index));
  }

  private static long count(TableClient table) {
    return table.query(EntityQuery.all()).entities().size();
  }

  @DatabaseTest
  void aHundredInsertsAnswerTheStoredEntitiesInTheirOrder(TableService service) {
    TableClient table = table(service);
    List<TableOperation> operations = inserts("p", 100);
    List<TableEntity> written = table.submitTransaction(operations);

    assertThat(written).hasSize(100);
    for (int i = 0; i < 100; i++) {
      TableEntity answer = written.get(i);
      assertThat(answer.rowKey()).isEqualTo(operations.get(i).entity().rowKey());
      assertThat(answer).isEqualTo(table.get("p", answer.rowKey()));
      assertThat(answer.etag()).isNotNull();
    }
    assertThat(written.stream().map(TableEntity::etag).distinct()).hasSize(100);
  }

  @DatabaseTest
  void anExistingEntityInTheMiddleFailsAtItsIndexAndNothingIsWritten(TableService service) {
    TableClient table = table(service);
    TableEntity existing = table.insert(TableEntity.builder("p", "r057").put("n", -1).build());

    assertFailsAt(
        57, TableErrorCode.ENTITY_ALREADY_EXISTS, () -> table.submitTransaction(inserts("p", 100)));
    assertThat(count(table)).isOne();
    assertThat(table.get("p", "r057")).isEqualTo(existing);
  }

  @DatabaseTest
  void anExistingEntityAtTheLastIndexFailsThere(TableService service) {
    TableClient table = table(service);
    table.insert(TableEntity.builder("p", "r099").build());
    assertFailsAt(
        99, TableErrorCode.ENTITY_ALREADY_EXISTS, () -> table.submitTransaction(inserts("p", 100)));
    assertThat(count(table)).isOne();
  }

  @DatabaseTest
  void aKeyTwiceInOneChangeSetFailsAtItsSecondIndex(TableService service) {
    TableClient table = table(service);
    List<TableOperation> operations = new ArrayList<>(inserts("p", 60));
    operations.set(42, TableOperation.insert(TableEntity.builder("p", "r017").build()));
    assertFailsAt(
        42, TableErrorCode.INVALID_DUPLICATE_ROW, () -> table.submitTransaction(operations));
    assertThat(count(table)).isZero();
  }

  @DatabaseTest
  void keysAndValuesThatArraysWouldQuoteRoundTrip(TableService service) {
    TableClient table = table(service);
    List<String> keys =
        List.of(
            "NULL",
            "null",
            "",
            " spaced ",
            "quote\"d",
            "{braced}",
            "a,b",
            "it's",
            "caf\u00e9",
            "\ud83d\ude00 smile",
            "\ue000private");
    List<TableOperation> operations = new ArrayList<>();
    for (String key : keys) {
      operations.add(
          TableOperation.insert(
              TableEntity.builder("{\"p\",NULL}", key)
                  .put("s", key + "\\ \"x\" {y} NULL")
                  .put("t", "\u0001\ud83d\ude00")
                  .build()));
    }
    List<TableEntity> written = table.submitTransaction(operations);

    for (int i = 0; i < keys.size(); i++) {
      TableEntity stored = table.get("{\"p\",NULL}", keys.get(i));
      assertThat(stored).isEqualTo(written.get(i));
      assertThat(stored.properties().get("s").value()).isEqualTo(keys.get(i) + "\\ \"x\" {y} NULL");
      assertThat(stored.properties().get("t").value()).isEqualTo("\u0001\ud83d\ude00");
    }
  }

  @DatabaseTest
  void aHundredEntitiesFillingTheChangeSetsLimitAreWritten(TableService service) {
    TableClient table = table(service);
    List<TableOperation> operations = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      TableEntity empty = TableEntity.builder("p", String.format("r%03d", i)).build();
      // each entity's share of 4 MiB, less the string's own overhead
      long room = TableLimits.MAX_BATCH_BYTES / 100 - EntitySize.of(empty) - 8 - 2 - 4;
      TableEntity full =
          TableEntity.builder("p", empty.rowKey()).put("s", "x".repeat((int) (room / 2))).build();
      operations.add(TableOperation.insert(full));
    }
    assertThat(operations.stream().mapToLong(op -> EntitySize.of(op.entity())).sum())
        .isLessThanOrEqualTo(TableLimits.MAX_BATCH_BYTES)
        .isGreaterThan(TableLimits.MAX_BATCH_BYTES - 200);

    assertThat(table.submitTransaction(operations)).hasSize(100);
    assertThat(table.get("p", "r063").properties().get("s").value())
        .isEqualTo(operations.get(63).entity().properties().get("s").value());
  }

  @DatabaseTest
  void theChangeFeedListsAGroupsInsertsInTheirOrder(TableService service) {
    TableClient table = table(service);
    ChangeFeed feed = table.extensions().changeFeed();
    feed.enable(true, ChangeFeed.DEFAULT_RETENTION);
    List<TableOperation> operations = new ArrayList<>(inserts("p", 100));
    java.util.Collections.shuffle(operations, new java.util.Random(12));
    List<TableEntity> written = table.submitTransaction(operations);

    List<TableChange> changes = new ArrayList<>();
    String token = null;
    while (true) {
      var page = feed.read(token, 40, Duration.ZERO);
      if (page.changes().isEmpty()) {
        break;
      }
      changes.addAll(page.changes());
      token = page.next();
    }
    assertThat(changes.stream().map(TableChange::rowKey).toList())
        .isEqualTo(operations.stream().map(op -> op.entity().rowKey()).toList());
    for (int i = 0; i < 100; i++) {
      assertThat(changes.get(i).kind()).isEqualTo(TableChange.Kind.INSERT);
      assertThat(changes.get(i).etag()).isEqualTo(written.get(i).etag());
      assertThat(changes.get(i).entity()).isEqualTo(written.get(i));
    }
  }

  @DatabaseTest
  void insertsBehindOtherKindsOfOperationKeepTheirAnswers(TableService service) {
    TableClient table = table(service);
    table.insert(TableEntity.builder("p", "old").put("n", 0).build());
    List<TableOperation> operations = new ArrayList<>(inserts("p", 50));
    operations.add(25, TableOperation.delete("p", "old", "*"));
    List<TableEntity> written = table.submitTransaction(operations);

    assertThat(written).hasSize(51);
    assertThat(written.get(26)).isEqualTo(table.get("p", "r025"));
    assertThat(count(table)).isEqualTo(50);
  }

  @DatabaseTest
  void twoGroupsRacingForTheSameKeysWriteOneOfThemWhole(TableService service) throws Exception {
    TableClient table = table(service);
    try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
      for (int round = 0; round < 10; round++) {
        String partition = "race" + round;
        List<Future<Integer>> racers = new ArrayList<>();
        for (int racer = 0; racer < 2; racer++) {
          int n = racer;
          racers.add(
              pool.submit(
                  () -> {
                    List<TableOperation> operations = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                      operations.add(
                          TableOperation.insert(
                              TableEntity.builder(partition, String.format("r%03d", i))
                                  .put("racer", n)
                                  .build()));
                    }
                    try {
                      table.submitTransaction(operations);
                      return 1;
                    } catch (TransactionFailedException e) {
                      assertThat(e.operationError().errorCode())
                          .isEqualTo(TableErrorCode.ENTITY_ALREADY_EXISTS);
                      assertThat(e.failedIndex()).isZero();
                      return 0;
                    }
                  }));
        }
        assertThat(racers.get(0).get() + racers.get(1).get()).isOne();
        List<TableEntity> stored =
            table.query(EntityQuery.filter("PartitionKey eq '" + partition + "'")).entities();
        assertThat(stored).hasSize(40);
        assertThat(stored.stream().map(e -> e.properties().get("racer")).distinct()).hasSize(1);
      }
    }
  }
}
