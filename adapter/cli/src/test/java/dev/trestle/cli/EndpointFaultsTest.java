package dev.trestle.cli;

import static dev.trestle.cli.EndpointCopyTest.contents;
import static dev.trestle.cli.EndpointCopyTest.credentials;
import static dev.trestle.cli.EndpointCopyTest.fill;
import static dev.trestle.cli.EndpointCopyTest.tricky;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.cli.FaultyEndpoint.Fault;
import dev.trestle.cli.FaultyEndpoint.Kind;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.util.List;

/**
 * copy to and from a Table endpoint that behaves as Azure does under load and on a poor network
 * ({@link FaultyEndpoint} in front of a Trestle server): short and empty pages with continuation
 * tokens, 503 ServerBusy with Retry-After, 500 OperationTimedOut before and after a write was
 * applied, connections dropped before and after, error codes in the body only. The copy ends exact
 * where retrying is safe, and stops, having written nothing twice, where it is not.
 */
@MultiShardWrites(
    "copies and imports into a database load rows of several partitions per transaction")
class EndpointFaultsTest {
  private static final String KEY = TrestleServer.DEV_ACCOUNT_KEY;

  @DatabaseTest
  void readsEveryEntityOnceThroughThrottlingTimeoutsDroppedConnectionsAndEmptyPages(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TrestleServer server =
            TrestleServer.builder(sourceTables).port(0).account(source, KEY).build().start();
        FaultyEndpoint azure = new FaultyEndpoint("http://127.0.0.1:" + server.port(), 37)) {
      fill(sourceTables, "Big", 4);
      sourceTables.createTable("Tricky");
      sourceTables.tableClient("Tricky").insert(tricky("it's a key", "with space & %"));
      sourceTables.tableClient("Tricky").insert(tricky("caf\u00e9 \uD83D\uDE00", "+plus=&"));
      azure.script(
          Kind.QUERY_ENTITIES,
          Fault.THROTTLE,
          Fault.EMPTY_PAGE,
          Fault.TIMEOUT_BEFORE,
          Fault.DROP_BEFORE,
          Fault.DROP_AFTER,
          Fault.EMPTY_PAGE,
          Fault.THROTTLE_MS,
          Fault.TIMEOUT_AFTER);

      try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
        CliRun run =
            CliRun.run(
                CliDatabases.args(
                    List.of(
                        "copy",
                        "--from-endpoint",
                        azure.endpoint(source),
                        "--from-key",
                        KEY,
                        "--to-db",
                        empty.url()),
                    credentials(db)));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("Copied 402 entities in 2 table(s)");
        assertThat(azure.pending()).isZero();
        assertThat(azure.injected()).hasSize(8);
        try (TableService copied =
            TableService.builder()
                .jdbcUrl(empty.url())
                .credentials(db.username(), db.password())
                .build()) {
          assertThat(contents(copied, "Big")).isEqualTo(contents(sourceTables, "Big"));
          assertThat(contents(copied, "Tricky")).isEqualTo(contents(sourceTables, "Tricky"));
        }
      }
    }
  }

  @DatabaseTest
  void upsertsEveryEntityThroughThrottlingAndWritesAppliedButNotAcknowledged(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(targetTables).port(0).account(target, KEY).build().start();
        FaultyEndpoint azure = new FaultyEndpoint("http://127.0.0.1:" + server.port(), 1000)) {
      fill(sourceTables, "Big", 4);
      sourceTables.tableClient("Big").insert(TableEntity.builder("solo", "r").put("N", -1).build());
      azure
          .script(
              Kind.BATCH,
              Fault.THROTTLE,
              Fault.TIMEOUT_AFTER,
              Fault.DROP_BEFORE,
              Fault.DROP_AFTER,
              Fault.TIMEOUT_BEFORE,
              Fault.THROTTLE_MS)
          .script(Kind.ENTITY_WRITE, Fault.TIMEOUT_AFTER, Fault.DROP_AFTER);

      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("copy"),
                  CliDatabases.flags(db),
                  "--account",
                  source,
                  "--to-endpoint",
                  azure.endpoint(target),
                  "--to-key",
                  KEY));

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.err()).contains("Copied 401 entities in 1 table(s)");
      assertThat(azure.pending()).isZero();
      assertThat(contents(targetTables, "Big")).isEqualTo(contents(sourceTables, "Big"));
    }
  }

  @DatabaseTest
  void anInsertThatTimedOutOrLostItsConnectionIsReadBackInsteadOfSentBlindly(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(targetTables).port(0).account(target, KEY).build().start();
        FaultyEndpoint azure = new FaultyEndpoint("http://127.0.0.1:" + server.port(), 1000)) {
      fill(sourceTables, "Orders", 4);
      // one attempt each, one batch in flight: the first batch is throttled, the second applied
      // but answered 500, the third answered 500 unapplied, the fourth applied and cut off
      azure.script(
          Kind.BATCH,
          Fault.THROTTLE_MS,
          Fault.PASS,
          Fault.TIMEOUT_AFTER,
          Fault.TIMEOUT_BEFORE,
          Fault.PASS,
          Fault.DROP_AFTER);

      CliRun run = insertCopy(db, source, azure.endpoint(target));

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.err()).contains("Copied 400 entities in 1 table(s)");
      assertThat(azure.pending()).isZero();
      assertThat(contents(targetTables, "Orders")).isEqualTo(contents(sourceTables, "Orders"));
    }
  }

  @DatabaseTest
  void anInsertInDoubtIsNeverTakenForAppliedWhenAnotherEntityHoldsAKey(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(targetTables).port(0).account(target, KEY).build().start();
        FaultyEndpoint azure = new FaultyEndpoint("http://127.0.0.1:" + server.port(), 1000)) {
      fill(sourceTables, "Orders", 2);
      targetTables.createTable("Orders");
      targetTables
          .tableClient("Orders")
          .insert(TableEntity.builder("p1", "r37").put("N", 0).build());
      azure.script(Kind.BATCH, Fault.PASS, Fault.TIMEOUT_BEFORE);

      CliRun run = insertCopy(db, source, azure.endpoint(target));

      assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
      assertThat(run.err()).contains("500 OperationTimedOut");
      List<java.util.Map.Entry<String, Object>> written = contents(targetTables, "Orders");
      assertThat(written).hasSize(101);
      assertThat(written.subList(0, 100))
          .isEqualTo(contents(sourceTables, "Orders").subList(0, 100));
      assertThat(written.get(100).getKey()).isEqualTo("p1|r37");
    }
  }

  private static CliRun insertCopy(TestDatabase db, String source, String endpoint) {
    return CliRun.run(
        CliDatabases.args(
            List.of("copy"),
            CliDatabases.flags(db),
            "--account",
            source,
            "--mode",
            "insert",
            "--lanes",
            "1",
            "--to-endpoint",
            endpoint,
            "--to-key",
            KEY));
  }
}
