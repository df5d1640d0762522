package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write paths of the extensions under SIGKILL, as {@link CrashTest} does for Azure's: time to
 * live (inserts over expired entities, the expiry sweep deleting every second), relaxed
 * transactions across partitions and tables, and a table's change feed (every acknowledged write
 * has its change, no change lacks its write, positions without a gap).
 *
 * <p>{@code -Dtrestle.crash.cycles=20} runs longer ({@code bench/crash-loop.sh}); the build runs 2
 * cycles per path and database.
 */
class ExtensionsCrashTest {
  private static final int CYCLES = KillCycles.cycles(2);

  @TempDir Path dir;

  private static String table(String kind) {
    return kind + Long.toString(System.nanoTime(), 36);
  }

  private ServerProcess h2(String name) {
    return new ServerProcess(dir, "jdbc:h2:file:" + dir.resolve(name + "/tables"));
  }

  private ServerProcess postgresql() {
    return new ServerProcess(dir, ServerProcess.postgresUrl("trestle_crash_test"));
  }

  private static ServerProcess sweepingEverySecond(ServerProcess server) {
    return server.with("TRESTLE_TTL_SWEEP_INTERVAL", "1").with("TRESTLE_TTL_SWEEP_BATCH", "25");
  }

  @Test
  void timeToLiveOnH2LosesNoAcknowledgedWrite() throws Exception {
    expiringWrites("H2, time to live", h2("ttl"));
  }

  @Test
  void timeToLiveOnPostgresqlLosesNoAcknowledgedWrite() throws Exception {
    expiringWrites("PostgreSQL, time to live", postgresql());
  }

  private static void expiringWrites(String database, ServerProcess server) throws Exception {
    ExpiringWrites writes = new ExpiringWrites(table("ttl"));
    KillCycles.run(database, sweepingEverySecond(server), writes, CYCLES);
    assertThat(writes.anomalies).as("inserts over expired entities refused").isEmpty();
  }

  @Test
  void relaxedTransactionsOnH2AreAllOrNothing() throws Exception {
    KillCycles.run(
        "H2, relaxed transactions",
        h2("relaxed").with("TRESTLE_RELAXED_TRANSACTIONS", "on"),
        new RelaxedWrites(table("relaxed")),
        CYCLES);
  }

  @Test
  void relaxedTransactionsOnPostgresqlAreAllOrNothing() throws Exception {
    KillCycles.run(
        "PostgreSQL, relaxed transactions",
        postgresql().with("TRESTLE_RELAXED_TRANSACTIONS", "on"),
        new RelaxedWrites(table("relaxed")),
        CYCLES);
  }

  @Test
  void changeFeedOnH2HoldsExactlyTheCommittedWrites() throws Exception {
    KillCycles.run(
        "H2, change feed",
        h2("feed").with("TRESTLE_FEED_SWEEP_INTERVAL", "1"),
        new FeedWrites(table("feed")),
        CYCLES);
  }

  @Test
  void changeFeedOnPostgresqlHoldsExactlyTheCommittedWrites() throws Exception {
    KillCycles.run(
        "PostgreSQL, change feed",
        postgresql().with("TRESTLE_FEED_SWEEP_INTERVAL", "1"),
        new FeedWrites(table("feed")),
        CYCLES);
  }
}
