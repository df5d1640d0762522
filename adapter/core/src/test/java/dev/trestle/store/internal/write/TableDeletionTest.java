package dev.trestle.store.internal.write;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.ChangeFeed;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableInfo;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.internal.database.Store;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.RecordingDataSource;
import dev.trestle.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/**
 * A table's delete takes effect at once, then removes its entities (on H2 a chunk of 1,000 per
 * transaction: the tables here hold more; on PostgreSQL with the catalog row). A delete stopped
 * half-way, after the table left its account (a crash), leaves a table already gone for every
 * caller, whose name is free, and whose rows the expiry sweep removes.
 */
class TableDeletionTest {
  private final String account = "del" + UUID.randomUUID().toString().substring(0, 8);

  @DatabaseTest
  void aDeletedTableLeavesNoRowBehindItsFeedIncluded(TestDatabase database) throws SQLException {
    try (TableService service = ClockedServices.open(database, Clock.systemUTC(), true, account)) {
      service.createTable("big");
      TableClient big = service.tableClient("big");
      big.extensions().changeFeed().enable(false, ChangeFeed.DEFAULT_RETENTION);
      fill(big, 2_500);
      long tableId = tableId(database, "big");
      assertThat(count(database, "trestle_change", tableId)).isEqualTo(2_500);

      service.deleteTable("big");

      assertThat(count(database, "trestle_entity", tableId)).isZero();
      assertThat(count(database, "trestle_change", tableId)).isZero();
      assertThat(catalogRows(database, tableId)).isZero();
      assertThat(service.getTable("big")).isEmpty();
      service.createTable("big");
      assertThat(big.listEntities(EntityQuery.all()).stream()).isEmpty();
    }
  }

  @DatabaseTest
  void aDeleteStoppedAfterItsTableLeftTheAccountIsFinishedByTheSweep(TestDatabase database)
      throws SQLException {
    try (TableService service = ClockedServices.open(database, Clock.systemUTC(), true, account);
        Store store = ClockedServices.store(database, Clock.systemUTC())) {
      service.createTable("half");
      service.createTable("kept");
      TableClient half = service.tableClient("half");
      fill(half, 1_500);
      service.tableClient("kept").insert(TableEntity.builder("p", "r").build());

      long tableId = new TableDeletion(store).detach(account, "half");

      // gone for every caller, though its rows are all still there
      assertThat(count(database, "trestle_entity", tableId)).isEqualTo(1_500);
      assertThat(service.listTables().stream().map(TableInfo::name)).containsExactly("kept");
      assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> half.get("p0", "r0"));
      assertFails(
          TableErrorCode.TABLE_NOT_FOUND,
          () -> half.insert(TableEntity.builder("p0", "new").build()));
      assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> service.deleteTable("half"));
      service.createTable("Half");
      half.insert(TableEntity.builder("p0", "r0").put("again", true).build());

      assertThat(service.expirySweep().runOnce(100)).isEqualTo(1_500);

      assertThat(count(database, "trestle_entity", tableId)).isZero();
      assertThat(catalogRows(database, tableId)).isZero();
      assertThat(service.expirySweep().runOnce(100)).isZero();
      assertThat(half.listEntities(EntityQuery.all()).stream().map(TableEntity::rowKey))
          .containsExactly("r0");
      assertThat(half.get("p0", "r0").getBoolean("again")).isTrue();
      assertThat(service.tableClient("kept").get("p", "r")).isNotNull();
    }
  }

  /**
   * H2 lets one writer at a time in: a table's entities go a chunk per transaction, so that a
   * writer of another table waits for a chunk, never for the whole delete.
   */
  @DatabaseTest(TestDatabase.Kind.H2)
  void onH2ALargeTablesEntitiesGoInTransactionsOfTheirOwn(TestDatabase database) {
    List<List<RecordingDataSource.Execution>> transactions = new CopyOnWriteArrayList<>();
    DataSource recorded = RecordingDataSource.wrap(database.dataSource(), transactions::add);
    try (TableService service =
        TableService.builder().dataSource(recorded).account(account).migrate(false).build()) {
      service.createTable("chunked");
      fill(service.tableClient("chunked"), 2_500);
      transactions.clear();

      service.deleteTable("chunked");

      List<List<RecordingDataSource.Execution>> deletingEntities =
          transactions.stream()
              .filter(
                  transaction ->
                      transaction.stream()
                          .anyMatch(e -> e.sql().startsWith("delete from trestle_entity")))
              .toList();
      assertThat(deletingEntities).hasSizeGreaterThanOrEqualTo(3).allMatch(t -> t.size() == 1);
      assertThat(service.getTable("chunked")).isEmpty();
    }
  }

  /** Entities in partitions of 100, a transaction each. */
  private static void fill(TableClient table, int entities) {
    for (int partition = 0; partition < entities / 100; partition++) {
      List<TableOperation> group = new ArrayList<>();
      for (int row = 0; row < 100; row++) {
        group.add(
            TableOperation.insert(
                TableEntity.builder("p" + partition, "r" + row).put("n", row).build()));
      }
      table.submitTransaction(group);
    }
  }

  private long tableId(TestDatabase database, String name) throws SQLException {
    return database.queryLong(
        "select id from trestle_table where account = ? and name_key = ?",
        account,
        name.toLowerCase(Locale.ROOT));
  }

  private static long count(TestDatabase database, String table, long tableId) throws SQLException {
    return database.queryLong("select count(*) from " + table + " where table_id = ?", tableId);
  }

  private static long catalogRows(TestDatabase database, long tableId) throws SQLException {
    return database.queryLong("select count(*) from trestle_table where id = ?", tableId);
  }
}
