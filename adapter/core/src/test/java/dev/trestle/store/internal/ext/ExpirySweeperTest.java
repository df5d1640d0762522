package dev.trestle.store.internal.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.TableServiceBuilder;
import dev.trestle.TimeToLive;
import dev.trestle.store.internal.codec.VersionClock;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.List;

/**
 * The sweeper deletes exactly the versions it judged expired: a rewrite between its read and its
 * delete survives, as does a second sweeper's pass over the same rows.
 */
class ExpirySweeperTest {
  private final FakeClock clock = new FakeClock();

  private Store store(TestDatabase database) {
    return Store.open(
        new StoreSettings(
            database.dataSource(),
            null,
            null,
            null,
            2,
            TableServiceBuilder.DEFAULT_CONNECTION_TIMEOUT,
            "sweeper",
            false,
            true),
        QueryLimits.SERVICE,
        new VersionClock(clock));
  }

  @DatabaseTest
  void anEntityRewrittenAfterItExpiredIsNotDeleted(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true);
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

      long deleted = 0;
      for (int run = 0; run < 100; run++) {
        deleted += racing.runOnce(1000);
        if (!table.extensions().exists("p", "rewritten")) {
          break;
        }
      }

      assertThat(table.get("p", "rewritten").properties().get("v").value()).isEqualTo(2);
      table.extensions().timeToLive(TimeToLive.OFF); // what the sweeper left shows again
      assertThat(table.listEntities().stream().map(TableEntity::rowKey).toList())
          .containsExactly("rewritten");
    }
  }

  @DatabaseTest
  void twoSweepersOverTheSameRowsDeleteEachOnce(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true);
        Store store = store(database)) {
      service.createTable("twice");
      TableClient table = service.tableClient("twice");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      for (int r = 0; r < 5; r++) {
        table.insert(TableEntity.builder("p", "r" + r).build());
      }
      clock.advance(Duration.ofSeconds(61));
      ExpirySweeper second = new ExpirySweeper(store);
      // the first sweeper reads the rows, then the second deletes them all before it does
      ExpirySweeper first =
          new ExpirySweeper(
              store,
              () -> {
                for (int run = 0; run < 100; run++) {
                  second.runOnce(1000);
                }
              });

      for (int run = 0; run < 100; run++) {
        first.runOnce(1000);
      }

      table.extensions().timeToLive(TimeToLive.OFF);
      assertThat(List.copyOf(table.listEntities().stream().toList())).isEmpty();
    }
  }
}
