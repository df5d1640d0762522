package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FaultyDataSource;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A write is acknowledged only when its transaction committed exactly what was decided, whatever
 * the database or the way to it does wrong: statements that fail, updates that silently change
 * nothing (a statement run as another behind a pooler), commits that fail before or after
 * committing, connections that cannot be had.
 */
class WriteFaultsTest {
  private static final int THREADS = 6;
  private static final int ENTITIES = 3;
  private static final int INCREMENTS_PER_THREAD = 30;

  @DatabaseTest
  void ifMatchIncrementsAreNeverLostWhateverTheDatabaseDoesWrong(TestDatabase database)
      throws Exception {
    // healthy while the service starts and the entities are inserted; the faults begin after
    FaultyDataSource faulty = new FaultyDataSource(database.dataSource());
    try (TableService service =
        TableService.builder()
            .dataSource(faulty)
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      faulty.heal();
      service.createTable("counters");
      TableClient table = service.tableClient("counters");
      for (int e = 0; e < ENTITIES; e++) {
        table.insert(TableEntity.builder("p", "c" + e).put("count", 0).build());
      }
      faulty.statementFailures(0.03).silentNoOps(0.1).commitFailures(0.03).connectionFailures(0.02);

      AtomicInteger acknowledged = new AtomicInteger();
      AtomicInteger unacknowledgedServerBusy = new AtomicInteger();
      runAll(
          () -> {
            int done = 0;
            while (done < INCREMENTS_PER_THREAD) {
              String rowKey = "c" + (done % ENTITIES);
              TableEntity read;
              try {
                read = table.get("p", rowKey);
              } catch (RuntimeException e) {
                continue; // an injected fault on the read: read again
              }
              int count = read.property("count").map(v -> (Integer) v.value()).orElseThrow();
              try {
                table.update(
                    TableEntity.builder("p", rowKey).put("count", count + 1).build(), read.etag());
                acknowledged.incrementAndGet();
                done++;
              } catch (TableException e) {
                if (e.errorCode() == TableErrorCode.SERVER_BUSY) {
                  unacknowledgedServerBusy.incrementAndGet();
                } else {
                  assertThat(e.errorCode())
                      .isIn(
                          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
                          TableErrorCode.INTERNAL_ERROR);
                }
              } catch (RuntimeException e) {
                // an injected statement failure: not acknowledged, so the update may be retried
                // from a new read
              }
            }
          });
      faulty.heal();

      int total = 0;
      for (TableEntity entity : table.query(EntityQuery.all()).entities()) {
        total += (Integer) entity.property("count").orElseThrow().value();
      }
      assertThat(faulty.silentNoOps())
          .as("updates that silently changed nothing were injected")
          .isPositive();
      // Every acknowledged increment is there; beyond them only commits whose failure was reported
      // although
      // the database committed (reported as ServerBusy, never as success).
      assertThat(total)
          .isBetween(acknowledged.get(), acknowledged.get() + faulty.unknownOutcomes());
      assertThat(acknowledged.get()).isEqualTo(THREADS * INCREMENTS_PER_THREAD);
    }
  }

  @DatabaseTest
  void aBatchIsWhollyAppliedOrNotAtAllWhateverTheDatabaseDoesWrong(TestDatabase database)
      throws Exception {
    FaultyDataSource faulty = new FaultyDataSource(database.dataSource());
    try (TableService service =
        TableService.builder()
            .dataSource(faulty)
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      service.createTable("batches");
      TableClient table = service.tableClient("batches");
      List<TableOperation> first = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        first.add(TableOperation.insert(TableEntity.builder("p", "r" + i).put("v", 0).build()));
      }
      table.submitTransaction(first);
      faulty.statementFailures(0.02).silentNoOps(0.05).commitFailures(0.05);
      int applied = 0;
      for (int version = 1; version <= 30; version++) {
        List<TableOperation> next = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          next.add(
              TableOperation.upsertReplace(
                  TableEntity.builder("p", "r" + i).put("v", version).build()));
        }
        try {
          table.submitTransaction(next);
          applied++;
        } catch (RuntimeException e) {
          // not acknowledged
        }
        faulty.heal();
        List<TableEntity> rows = table.query(EntityQuery.all()).entities();
        assertThat(rows).hasSize(50);
        assertThat(rows)
            .extracting(row -> row.property("v").orElseThrow().value())
            .as("one version, never half")
            .containsOnly(rows.get(0).property("v").orElseThrow().value());
        faulty.statementFailures(0.02).silentNoOps(0.05).commitFailures(0.05);
      }
      assertThat(applied).isPositive();
    }
  }

  @DatabaseTest
  void aDatabaseThatCannotBeReachedIsServerBusy(TestDatabase database) {
    FaultyDataSource faulty = new FaultyDataSource(database.dataSource());
    try (TableService service =
        TableService.builder()
            .dataSource(faulty)
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      service.createTable("unreachable");
      TableClient table = service.tableClient("unreachable");
      faulty.connectionFailures(1);
      assertFails(
          TableErrorCode.SERVER_BUSY, () -> table.insert(TableEntity.builder("p", "r").build()));
      assertFails(TableErrorCode.SERVER_BUSY, () -> table.get("p", "r"));
      assertFails(TableErrorCode.SERVER_BUSY, () -> table.query(EntityQuery.all()));
      assertFails(TableErrorCode.SERVER_BUSY, () -> service.getTable("unreachable"));
      faulty.heal();
      assertThat(table.insert(TableEntity.builder("p", "r").build()).rowKey())
          .as("recovers by itself")
          .isEqualTo("r");
    }
  }

  @DatabaseTest
  void aCommitThatFailsIsNeverAcknowledged(TestDatabase database) {
    FaultyDataSource faulty = new FaultyDataSource(database.dataSource());
    try (TableService service =
        TableService.builder()
            .dataSource(faulty)
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      service.createTable("commits");
      TableClient table = service.tableClient("commits");
      TableEntity stored = table.insert(TableEntity.builder("p", "r").put("v", 1).build());
      faulty.commitFailures(1);
      // a single-entity write is one auto-committed statement: only a transaction commits
      assertFails(
          TableErrorCode.SERVER_BUSY,
          () ->
              table.submitTransaction(
                  List.of(
                      TableOperation.update(
                          TableEntity.builder("p", "r").put("v", 2).build(), stored.etag()))));
    }
  }

  private static void runAll(ThrowingRunnable task) throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        futures.add(
            pool.submit(
                () -> {
                  task.run();
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    }
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
