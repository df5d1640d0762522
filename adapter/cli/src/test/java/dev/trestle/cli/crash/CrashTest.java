package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server as its own process under concurrent inserts, upserts, merges and 100-entity batches,
 * killed with SIGKILL at a random moment and started again on the same database, cycle after cycle:
 * every acknowledged write is there with its acknowledged ETag and values, and no batch is half
 * there. Then the same with SIGTERM, where every request refused during the stop is a clean 503
 * ServerBusy.
 *
 * <p>{@code -Dtrestle.crash.cycles=20} runs longer; the build runs 3 cycles per database.
 */
class CrashTest {
  private static final Logger log = LoggerFactory.getLogger(CrashTest.class);
  private static final int CYCLES = KillCycles.cycles(3);
  private static final int CLIENTS = 6;

  /**
   * Writes each cycle sees acknowledged before its kill, so that a loaded machine still tests
   * something.
   */
  private static final int MIN_WRITES_PER_CYCLE = 15;

  @TempDir Path dir;

  @Test
  void killedOnTheDefaultH2DatabaseLosesNoAcknowledgedWrite() throws Exception {
    killCycles("H2 (default URL)", new ServerProcess(dir, null));
  }

  @Test
  void killedOnAnH2UrlWithoutTheFilePrefixLosesNoAcknowledgedWrite() throws Exception {
    killCycles("H2 (jdbc:h2:./PATH)", new ServerProcess(dir, "jdbc:h2:./implicit/tables"));
  }

  @Test
  void killedOnAPlainH2FileUrlLosesNoAcknowledgedWrite() throws Exception {
    killCycles(
        "H2 (jdbc:h2:file:PATH)",
        new ServerProcess(dir, "jdbc:h2:file:" + dir.resolve("plain/tables")));
  }

  @Test
  void killedOnPostgresqlLosesNoAcknowledgedWrite() throws Exception {
    killCycles(
        "PostgreSQL", new ServerProcess(dir, ServerProcess.postgresUrl("trestle_crash_test")));
  }

  /**
   * The same on a database with the scalar store: no acknowledged write is lost, and every entity
   * still has exactly its scalar row (each write and its scalar row commit together or not at all).
   */
  @Test
  void killedOnPostgresqlWithTheScalarStoreLosesNothingAndKeepsItInStep() throws Exception {
    String url = ServerProcess.postgresUrl("trestle_crash_scalar_store");
    killCycles(
        "PostgreSQL with the scalar store",
        new ServerProcess(dir, url).with("TRESTLE_SCALAR_STORE", "true"));
    try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url);
        java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet row =
            statement.executeQuery(
                "select (select count(*) from trestle_entity e left join trestle_entity_scalar s"
                    + " using (table_id, partition_key, row_key)"
                    + " where s.scalars is distinct from trestle_scalars(e.properties)"
                    + " or s.signature is distinct from trestle_string_signature(e.properties)),"
                    + " (select count(*) from trestle_entity_scalar s where not exists (select 1"
                    + " from trestle_entity e where (e.table_id, e.partition_key, e.row_key)"
                    + " = (s.table_id, s.partition_key, s.row_key))),"
                    + " (select count(*) from trestle_entity)")) {
      row.next();
      log.info(
          "scalar store after the kills: {} entities, {} missing or stale, {} orphans",
          row.getLong(3),
          row.getLong(1),
          row.getLong(2));
      org.assertj.core.api.Assertions.assertThat(row.getLong(1)).as("stale scalar rows").isZero();
      org.assertj.core.api.Assertions.assertThat(row.getLong(2)).as("orphan scalar rows").isZero();
      org.assertj.core.api.Assertions.assertThat(row.getLong(3)).isPositive();
    }
  }

  @Test
  void stoppedWithSigtermOnH2LosesNothingAndRefusesOnlyWithServerBusy() throws Exception {
    terminateCycle(
        "H2 (jdbc:h2:file:PATH)",
        new ServerProcess(dir, "jdbc:h2:file:" + dir.resolve("term/tables")));
  }

  @Test
  void stoppedWithSigtermOnPostgresqlLosesNothingAndRefusesOnlyWithServerBusy() throws Exception {
    terminateCycle(
        "PostgreSQL", new ServerProcess(dir, ServerProcess.postgresUrl("trestle_crash_test")));
  }

  private void killCycles(String database, ServerProcess server) throws Exception {
    String table = "crash" + Long.toString(System.nanoTime(), 36);
    KillCycles.run(database, server, new EntityWrites(table, false), CYCLES);
  }

  /** Waits (up to a minute) until the ledger holds {@code count} acknowledged writes. */
  private static void awaitAcknowledged(Ledger ledger, int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (ledger.acknowledgedWrites() < count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  private void terminateCycle(String database, ServerProcess server) throws Exception {
    Ledger ledger = new Ledger();
    String table = "term" + Long.toString(System.nanoTime(), 36);
    Workload workload = new Workload(ledger, table);
    SignedHttp http = new SignedHttp(server.start());
    assertThat(http.json("POST", "/Tables", "{\"TableName\":\"" + table + "\"}", null).status())
        .isEqualTo(201);
    workload.start(http, CLIENTS, 0);
    Thread.sleep(1500);
    awaitAcknowledged(ledger, MIN_WRITES_PER_CYCLE);
    int exitCode = server.terminate();
    workload.stop();
    String stopLog = server.log();
    assertThat(exitCode)
        .as("the JVM's exit code after SIGTERM (128 + 15)\n" + stopLog)
        .isEqualTo(143);
    assertThat(workload.refusals)
        .as("requests refused during the graceful stop")
        .allMatch("503 ServerBusy"::equals);
    assertThat(stopLog).doesNotContain("ERROR").doesNotContain("already closed");

    http = new SignedHttp(server.start());
    Verifier.Findings findings = checked(server, http, table, ledger);
    server.terminate();
    assertThat(findings.lost())
        .as("acknowledged writes lost after SIGTERM on %s", database)
        .isEmpty();
    assertThat(findings.partialBatches()).isEmpty();
    assertThat(ledger.acknowledgedWrites).isPositive();
    log.info(
        "SIGTERM test on {}: {} acknowledged writes, {} refused with 503 ServerBusy, lost 0",
        database,
        ledger.acknowledgedWrites,
        workload.refusals.size());
  }

  /**
   * The verification, with the server's log attached when the server does not answer as it should.
   */
  private static Verifier.Findings checked(
      ServerProcess server, SignedHttp http, String table, Ledger ledger) throws Exception {
    try {
      return Verifier.check(http, table, ledger);
    } catch (IllegalStateException e) {
      throw new AssertionError(e.getMessage() + "\nServer log:\n" + server.log(), e);
    }
  }
}
