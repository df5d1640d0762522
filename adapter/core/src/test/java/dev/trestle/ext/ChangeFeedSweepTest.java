package dev.trestle.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.ChangeFeed;
import dev.trestle.ChangeFeedSweep;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.time.Duration;

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

  private static boolean swept(ChangeFeed feed) {
    return feed.read(null).changes().isEmpty();
  }
}
