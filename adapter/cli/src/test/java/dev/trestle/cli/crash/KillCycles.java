package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Scenario} against a server killed with SIGKILL at a random moment and started again
 * on the same database, cycle after cycle, checking after each restart; fails at the first lost
 * write or half-applied transaction.
 */
final class KillCycles {
  private static final Logger log = LoggerFactory.getLogger(KillCycles.class);
  private static final int CLIENTS = 6;

  /**
   * Writes each cycle sees acknowledged before its kill, so that a loaded machine still tests
   * something.
   */
  private static final int MIN_WRITES_PER_CYCLE = 15;

  private KillCycles() {}

  /** {@code -Dtrestle.crash.cycles=N} when set, else {@code fallback}. */
  static int cycles(int fallback) {
    return Integer.getInteger("trestle.crash.cycles", fallback);
  }

  static void run(String database, ServerProcess server, Scenario scenario, int cycles)
      throws Exception {
    int lost = 0;
    int partial = 0;
    try {
      for (int cycle = 0; cycle <= cycles; cycle++) {
        SignedHttp http = new SignedHttp(server.start());
        if (cycle == 0) {
          scenario.prepare(http);
        } else {
          Verifier.Findings findings = checked(server, http, scenario);
          lost += findings.lost().size();
          partial += findings.partialBatches().size();
          assertThat(findings.lost())
              .as("acknowledged writes lost after kill %d on %s", cycle, database)
              .isEmpty();
          assertThat(findings.partialBatches())
              .as("transactions half applied after kill %d on %s", cycle, database)
              .isEmpty();
        }
        if (cycle == cycles) {
          server.terminate();
          break;
        }
        int before = scenario.acknowledgedWrites();
        scenario.start(http, CLIENTS, cycle);
        Thread.sleep(ThreadLocalRandom.current().nextLong(800, 2500));
        awaitAcknowledged(scenario, before + MIN_WRITES_PER_CYCLE);
        server.kill();
        scenario.stop();
      }
    } catch (Throwable failure) {
      server.kill(); // a failed check leaves no server behind
      throw failure;
    }
    assertThat(scenario.acknowledgedWrites())
        .as("writes were acknowledged before the kills")
        .isGreaterThanOrEqualTo(cycles * MIN_WRITES_PER_CYCLE);
    log.info(
        "Crash test on {}: {} SIGKILL cycles, {} acknowledged writes ({}), lost {}, partial {}",
        database,
        cycles,
        scenario.acknowledgedWrites(),
        scenario.tally(),
        lost,
        partial);
  }

  /** Waits (up to a minute) until {@code count} writes were acknowledged. */
  private static void awaitAcknowledged(Scenario scenario, int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (scenario.acknowledgedWrites() < count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  /**
   * The verification, with the server's log attached when the server does not answer as it should.
   */
  private static Verifier.Findings checked(ServerProcess server, SignedHttp http, Scenario scenario)
      throws Exception {
    try {
      return scenario.verify(http);
    } catch (IllegalStateException e) {
      throw new AssertionError(e.getMessage() + "\nServer log:\n" + server.log(), e);
    }
  }
}
