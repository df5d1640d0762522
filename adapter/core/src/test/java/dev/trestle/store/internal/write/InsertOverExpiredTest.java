package dev.trestle.store.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.store.internal.database.Store;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

/**
 * An insert meets an expired entity's key as over none, also when the sweep removes that entity
 * between the insert's duplicate key and the read that explains it (the crash test's TTL workload
 * saw a 409 EntityAlreadyExists there, for a key nothing held any more).
 */
class InsertOverExpiredTest {
  private final FakeClock clock = new FakeClock();

  /** Deletes every stored row of the account's table, as the sweep deletes expired ones. */
  static Runnable sweepOf(TestDatabase database, String account, String table) {
    return () -> {
      try (Connection connection = database.dataSource().getConnection();
          PreparedStatement delete =
              connection.prepareStatement(
                  "delete from trestle_entity where table_id = (select id from trestle_table"
                      + " where account = ? and name_key = ?)")) {
        delete.setString(1, account);
        delete.setString(2, table);
        delete.executeUpdate();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    };
  }

  @DatabaseTest
  void anInsertOverAnEntitySweptAfterItsKeyWasMetSucceeds(TestDatabase database) {
    String account = "swept" + UUID.randomUUID().toString().substring(0, 8);
    try (TableService service = ClockedServices.open(database, clock, true, account);
        Store store = ClockedServices.store(database, clock)) {
      service.createTable("swept");
      TableClient table = service.tableClient("swept");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      table.insert(TableEntity.builder("p", "k").put("v", 1).build());
      clock.advance(Duration.ofSeconds(61));
      SingleWrite racing =
          new SingleWrite(store, account, "swept", sweepOf(database, account, "swept"));

      racing.write(
          store.sql, TableOperation.insert(TableEntity.builder("p", "k").put("v", 2).build()));

      assertThat(table.get("p", "k").properties().get("v").value()).isEqualTo(2);
    }
  }
}
