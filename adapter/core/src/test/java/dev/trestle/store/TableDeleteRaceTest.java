package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A table deleted while writers insert into it: each insert lands (and goes with the table) or
 * fails with TableNotFound, and no entity is left behind without its table. H2's foreign-key check
 * does not see a delete in flight, so there the delete removes what such inserts left.
 */
class TableDeleteRaceTest {
  private static final int WRITERS = 6;
  private static final int ROUNDS = 6;

  @DatabaseTest
  void insertsRacingTheirTablesDeleteFailWithTableNotFoundOrGoWithTheTable(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS)) {
      for (int round = 0; round < ROUNDS; round++) {
        String name = "race" + round;
        service.createTable(name);
        long tableId = tableId(db, account, name);
        TableClient table = service.tableClient(name);
        List<Future<Long>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          writers.add(pool.submit(() -> writeUntilTheTableIsGone(table, writer)));
        }
        Thread.sleep(30 + 20L * round);
        service.deleteTable(name);
        long written = 0;
        for (Future<Long> writer : writers) {
          written += writer.get();
        }
        assertThat(written).as("entities written before the delete").isPositive();
        assertThat(entities(db, tableId)).as("entities left without their table").isZero();
      }
    }
  }

  /** Inserts, alone and in groups, until the table is gone; any other failure fails the test. */
  private static long writeUntilTheTableIsGone(TableClient table, int writer) {
    long written = 0;
    for (int i = 0; ; i++) {
      String partition = "w" + writer + "-" + i;
      try {
        if (i % 2 == 0) {
          table.insert(TableEntity.builder(partition, "r").put("n", i).build());
          written++;
        } else {
          List<TableOperation> group = new ArrayList<>();
          for (int r = 0; r < 20; r++) {
            group.add(TableOperation.insert(TableEntity.builder(partition, "r" + r).build()));
          }
          table.submitTransaction(group);
          written += group.size();
        }
      } catch (TableException e) {
        assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(TableErrorCode.TABLE_NOT_FOUND);
        return written;
      }
    }
  }

  private static long tableId(TestDatabase db, String account, String name) throws SQLException {
    return db.queryLong(
        "select id from trestle_table where account = ? and name_key = ?",
        account,
        name.toLowerCase(Locale.ROOT));
  }

  private static long entities(TestDatabase db, long tableId) throws SQLException {
    return db.queryLong("select count(*) from trestle_entity where table_id = ?", tableId);
  }
}
