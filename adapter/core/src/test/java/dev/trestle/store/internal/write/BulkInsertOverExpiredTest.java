package dev.trestle.store.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.BulkWriteOptions;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.store.internal.database.Store;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.UUID;

/**
 * A bulk insert meets an expired entity's key as over none, also when the sweep removes that entity
 * between the batch's duplicate key and the writer's own removal of expired entities.
 */
class BulkInsertOverExpiredTest {
  private final FakeClock clock = new FakeClock();

  @DatabaseTest
  void aBulkInsertOverAnEntitySweptAfterItsKeyWasMetSucceeds(TestDatabase database) {
    String account = "bulk" + UUID.randomUUID().toString().substring(0, 8);
    try (TableService service = ClockedServices.open(database, clock, true, account);
        Store store = ClockedServices.store(database, clock)) {
      service.createTable("swept");
      TableClient table = service.tableClient("swept");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      table.insert(TableEntity.builder("p", "k").put("v", 1).build());
      clock.advance(Duration.ofSeconds(61));

      try (BulkEntityWriter writer =
          new BulkEntityWriter(
              store,
              account,
              "swept",
              BulkWriteOptions.defaults().withMode(BulkWriteOptions.Mode.INSERT),
              InsertOverExpiredTest.sweepOf(database, account, "swept"))) {
        writer.add(TableEntity.builder("p", "k").put("v", 2).build());
        writer.add(TableEntity.builder("p", "new").put("v", 2).build());
      }

      assertThat(table.get("p", "k").properties().get("v").value()).isEqualTo(2);
      assertThat(table.get("p", "new").properties().get("v").value()).isEqualTo(2);
    }
  }
}
