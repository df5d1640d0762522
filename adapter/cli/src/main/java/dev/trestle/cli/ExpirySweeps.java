package dev.trestle.cli;

import dev.trestle.ExpirySweep;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the expiry sweep (time to live) of a serving process: one bounded batch each interval, on a
 * daemon thread of its own, so that a sweep never holds a request's connection. Several servers on
 * one database sweep safely side by side: each deletes only the versions it found expired.
 */
final class ExpirySweeps {
  private static final Logger log = LoggerFactory.getLogger(ExpirySweeps.class);

  /** Settings of the sweep: {@code interval} zero switches it off. */
  record Schedule(Duration interval, int batchSize) {}

  private ExpirySweeps() {}

  static void startInBackground(ServerRuntime runtime, Schedule schedule) {
    if (schedule.interval().isZero()) {
      return;
    }
    ExpirySweep sweep = runtime.tableService().expirySweep();
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("trestle-expiry-sweep").factory());
    long millis = schedule.interval().toMillis();
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            long deleted = sweep.runOnce(schedule.batchSize());
            if (deleted > 0) {
              log.debug("Removed {} expired entities", deleted);
            }
          } catch (RuntimeException e) {
            // the database away or the server stopping: the next run tries again
            log.warn("The expiry sweep failed: {}", e.toString());
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }
}
