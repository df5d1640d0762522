package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /**
   * Where each kill's H2 files are copied before the next start ({@code
   * -Dtrestle.crash.evidence=DIR}, a folder per kill), so that the file behind a failed check can
   * be examined as the kill left it; none by default.
   */
  private static final Path EVIDENCE =
      System.getProperty("trestle.crash.evidence") == null
          ? null
          : Path.of(System.getProperty("trestle.crash.evidence"));

  /** The repair's WARN line as a restarted server logs it. */
  private static final Pattern REVERTED =
      Pattern.compile("reverted (\\d+) row versions of no transaction");

  private KillCycles() {}

  /** {@code -Dtrestle.crash.cycles=N} when set, else {@code fallback}. */
  static int cycles(int fallback) {
    return Integer.getInteger("trestle.crash.cycles", fallback);
  }

  static void run(String database, ServerProcess server, Scenario scenario, int cycles)
      throws Exception {
    int lost = 0;
    int partial = 0;
    int reverted = 0;
    try {
      for (int cycle = 0; cycle <= cycles; cycle++) {
        SignedHttp http = new SignedHttp(server.start());
        if (cycle == 0) {
          scenario.prepare(http);
        } else {
          reverted += revertedAtStart(server.log());
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
        if (EVIDENCE != null) {
          server.copyDatabaseFiles(
              EVIDENCE.resolve(database.replaceAll("[^A-Za-z0-9]+", "_") + "/kill-" + (cycle + 1)));
        }
      }
    } catch (Throwable failure) {
      server.kill(); // a failed check leaves no server behind
      throw failure;
    }
    assertThat(scenario.acknowledgedWrites())
        .as("writes were acknowledged before the kills")
        .isGreaterThanOrEqualTo(cycles * MIN_WRITES_PER_CYCLE);
    log.info(
        "Crash test on {}: {} SIGKILL cycles, {} acknowledged writes ({}), lost {}, partial {};"
            + " H2 row versions of no transaction reverted at restart: {}",
        database,
        cycles,
        scenario.acknowledgedWrites(),
        scenario.tally(),
        lost,
        partial,
        reverted);
  }

  /**
   * The row versions of no transaction that the repair of a killed H2 file reverted as the server
   * started (its log says so): none, unless a save of the file overlapped a writing transaction.
   */
  private static int revertedAtStart(String serverLog) {
    Matcher line = REVERTED.matcher(serverLog);
    return line.find() ? Integer.parseInt(line.group(1)) : 0;
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
