package dev.trestle.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.ChangeFeed;
import dev.trestle.ChangeFeedSweep;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

/** The service's sweep of every change feed (what {@code trestle serve} runs on a timer). */
class ChangeFeedSweepTest {

  @DatabaseTest
  void sweepsEveryFeedInTurnABoundedNumberOfChangesPerRun(TableService service) {
    ChangeFeed[] feeds = new ChangeFeed[2];
    for (int t = 0; t < feeds.length; t++) {
      String name = "swept" + t;
      service.createTable(name);
      TableClient table = service.tableClient(name);
      feeds[t] = table.extensions().changeFeed();
      feeds[t].enable(false, Duration.ofNanos(100)); // one tick: every change written is older
      for (int i = 0; i < 5; i++) {
        table.insert(TableEntity.builder("p", "r" + i).build());
      }
    }
    service.createTable("kept");
    TableClient keptTable = service.tableClient("kept");
    keptTable.extensions().changeFeed().enable(false, ChangeFeed.DEFAULT_RETENTION);
    keptTable.insert(TableEntity.builder("p", "r").build());

    ChangeFeedSweep sweep = service.changeFeedSweep();
    // the database's other feeds (other tests') take their turns too: bounded, not timed
    for (int run = 0; run < 10_000 && !(swept(feeds[0]) && swept(feeds[1])); run++) {
      assertThat(sweep.runOnce(2)).isBetween(0L, 2L);
    }

    assertThat(swept(feeds[0]) && swept(feeds[1])).isTrue();
    assertThat(keptTable.extensions().changeFeed().read(null).changes()).hasSize(1);
  }

  @DatabaseTest
  void judgesRetentionByTheServicesClock(TestDatabase database) {
    FakeClock clock = new FakeClock(Instant.now());
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("clocked");
      TableClient table = service.tableClient("clocked");
      ChangeFeed feed = table.extensions().changeFeed();
      feed.enable(false, Duration.ofHours(1));
      table.insert(TableEntity.builder("p", "r").build());
      ChangeFeedSweep sweep = service.changeFeedSweep();

      sweepEveryFeed(sweep, database);
      assertThat(feed.read(null).changes()).hasSize(1); // an hour has not passed on its clock

      clock.advance(Duration.ofHours(2));
      sweepEveryFeed(sweep, database);
      assertThat(swept(feed)).isTrue();
    }
  }

  /**
   * Runs until as many runs in a row as there are feeds removed nothing: each of them, ours too,
   * had its turn since the last removal.
   */
  private static void sweepEveryFeed(ChangeFeedSweep sweep, TestDatabase database) {
    long feeds = feedCount(database);
    long idle = 0;
    for (int run = 0; run < 10_000 && idle <= feeds; run++) {
      idle = sweep.runOnce(1_000) == 0 ? idle + 1 : 0;
    }
    assertThat(idle).isGreaterThan(feeds);
  }

  private static long feedCount(TestDatabase database) {
    try (Connection connection = database.dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("select count(*) from trestle_feed")) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean swept(ChangeFeed feed) {
    return feed.read(null).changes().isEmpty();
  }
}
