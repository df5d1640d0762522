package dev.trestle.store.internal.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.store.internal.database.Store;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The sweeper deletes exactly the versions it judged expired: a rewrite between its read and its
 * delete survives, as does a second sweeper's pass over the same rows.
 */
class ExpirySweeperTest {
  private final FakeClock clock = new FakeClock();

  private Store store(TestDatabase database) {
    return ClockedServices.store(database, clock);
  }

  /** The table's rows as stored, expired or not. */
  private static int storedRows(TestDatabase database, String account, String table) {
    try (Connection connection = database.dataSource().getConnection();
        PreparedStatement count =
            connection.prepareStatement(
                "select count(*) from trestle_entity e join trestle_table t on t.id = e.table_id"
                    + " where t.account = ? and t.name_key = ?")) {
      count.setString(1, account);
      count.setString(2, table);
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getInt(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @DatabaseTest
  void anEntityRewrittenAfterItExpiredIsNotDeleted(TestDatabase database) {
    String account = "race" + UUID.randomUUID().toString().substring(0, 8);
    try (TableService service = ClockedServices.open(database, clock, true, account);
        Store store = store(database)) {
      service.createTable("raced");
      TableClient table = service.tableClient("raced");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      table.insert(TableEntity.builder("p", "rewritten").put("v", 1).build());
      table.insert(TableEntity.builder("p", "expired").put("v", 1).build());
      clock.advance(Duration.ofSeconds(61));
      ExpirySweeper racing =
          new ExpirySweeper(
              store,
              () -> table.upsertReplace(TableEntity.builder("p", "rewritten").put("v", 2).build()));

      // every table with TTL in the database is swept in turn: run until this one's turn is over
      while (storedRows(database, account, "raced") == 2) {
        racing.runOnce(1000);
      }

      assertThat(table.get("p", "rewritten").properties().get("v").value()).isEqualTo(2);
      table.extensions().timeToLive(TimeToLive.OFF); // what the sweeper left shows again
      assertThat(table.listEntities().stream().map(TableEntity::rowKey).toList())
          .containsExactly("rewritten");
    }
  }

  @DatabaseTest
  void twoSweepersOverTheSameRowsDeleteEachOnce(TestDatabase database) {
    String account = "twice" + UUID.randomUUID().toString().substring(0, 8);
    try (TableService service = ClockedServices.open(database, clock, true, account);
        Store store = store(database)) {
      service.createTable("twice");
      TableClient table = service.tableClient("twice");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      for (int r = 0; r < 5; r++) {
        table.insert(TableEntity.builder("p", "r" + r).build());
      }
      clock.advance(Duration.ofSeconds(61));
      ExpirySweeper second = new ExpirySweeper(store);
      // between the first sweeper's read and its deletes, the second deletes every expired row
      ExpirySweeper first =
          new ExpirySweeper(
              store,
              () -> {
                while (storedRows(database, account, "twice") > 0) {
                  second.runOnce(1000);
                }
              });

      first.runOnce(1000); // its deletes, of whatever table it read, find their rows gone

      table.extensions().timeToLive(TimeToLive.OFF);
      assertThat(List.copyOf(table.listEntities().stream().toList())).isEmpty();
    }
  }

  @DatabaseTest
  void anEntityNoLongerExpiredUnderALengthenedDefaultIsNotDeleted(TestDatabase database) {
    String account = "longer" + UUID.randomUUID().toString().substring(0, 8);
    try (TableService service = ClockedServices.open(database, clock, true, account);
        Store store = store(database)) {
      service.createTable("longer");
      TableClient table = service.tableClient("longer");
      table.insert(TableEntity.builder("p", "kept").put("v", 1).build());
      // expired under any default: the sweep's visit to this table deletes it
      table.insert(
          TableEntity.builder("p", "own")
              .put(TimeToLive.EXPIRES_PROPERTY, clock.instant().plusSeconds(1))
              .build());
      clock.advance(Duration.ofSeconds(61));
      ExpirySweeper lengthening =
          new ExpirySweeper(
              store, () -> table.extensions().timeToLive(TimeToLive.of(Duration.ofHours(1))));

      // every table with TTL is swept in turn: each run reads this one under the short default,
      // and the default is lengthened before the run deletes
      while (storedRows(database, account, "longer") == 2) {
        table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
        lengthening.runOnce(1000);
      }

      assertThat(table.get("p", "kept").properties().get("v").value()).isEqualTo(1);
      table.extensions().timeToLive(TimeToLive.OFF);
      assertThat(table.listEntities().stream().map(TableEntity::rowKey).toList())
          .containsExactly("kept");
    }
  }
}
