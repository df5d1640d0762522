package dev.trestle.cli;

import dev.trestle.ChangeFeedSweep;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the change-feed sweep of a serving process, as {@link ExpirySweeps} runs the expiry sweep:
 * one bounded batch of one table's feed each interval, on a daemon thread of its own. Several
 * servers on one database sweep safely side by side: each sweep locks the feed it trims.
 */
final class FeedSweeps {
  private static final Logger log = LoggerFactory.getLogger(FeedSweeps.class);

  /** Settings of the sweep: {@code interval} zero switches it off. */
  record Schedule(Duration interval, int batchSize) {}

  private FeedSweeps() {}

  static void startInBackground(ServerRuntime runtime, Schedule schedule) {
    if (schedule.interval().isZero()) {
      return;
    }
    ChangeFeedSweep sweep = runtime.tableService().changeFeedSweep();
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("trestle-feed-sweep").factory());
    long millis = schedule.interval().toMillis();
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            long removed = sweep.runOnce(schedule.batchSize());
            if (removed > 0) {
              log.debug("Removed {} changes past their feed's retention", removed);
            }
          } catch (RuntimeException e) {
            // the database away or the server stopping: the next run tries again
            log.warn("The change-feed sweep failed: {}", e.toString());
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }
}
