package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** copy to and from a Table endpoint over HTTP with Shared Key, against a Trestle server, on H2 and PostgreSQL. */
class EndpointCopyTest {
  private static final String KEY = TrestleServer.DEV_ACCOUNT_KEY;

  @DatabaseTest
  void copiesFromAnEndpointIntoADatabaseAndBackIntoAnotherAccount(TestDatabase db) throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server = TrestleServer.builder(sourceTables).port(0)
            .account(source, KEY).account(target, KEY).build().start()) {
      sourceTables.createTable("Big");
      for (int p = 0; p < 11; p++) {
        List<TableOperation> batch = new ArrayList<>();
        for (int r = 0; r < 100; r++) {
          batch.add(TableOperation.insert(TableEntity.builder("p" + p, "r" + r).put("N", p * 100 + r).build()));
        }
        sourceTables.tableClient("Big").submitTransaction(batch);
      }
      sourceTables.createTable("Tricky");
      sourceTables.tableClient("Tricky").insert(tricky("it's a key", "with space & %"));
      sourceTables.tableClient("Tricky").insert(tricky("caf\u00e9 \uD83D\uDE00", "+plus=&"));

      try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
        CliRun in = CliRun.run(CliDatabases.args(List.of("copy", "--from-endpoint", server.endpoint(source),
            "--from-key", KEY, "--to-db", empty.url()), credentials(db)));
        assertThat(in.exitCode()).as(in.err()).isZero();
        assertThat(in.err()).contains("Copied 1102 entities in 2 table(s)");
        try (TableService copied = TableService.builder().jdbcUrl(empty.url())
            .credentials(db.username(), db.password()).build()) {
          assertThat(contents(copied, "Big")).isEqualTo(contents(sourceTables, "Big"));
          assertThat(contents(copied, "Tricky")).isEqualTo(contents(sourceTables, "Tricky"));
        }
      }

      CliRun out = CliRun.run(CliDatabases.args(List.of("copy"), CliDatabases.flags(db), "--account", source,
          "--table", "tricky", "--to-endpoint", server.endpoint(target) + "/", "--to-key", KEY));
      assertThat(out.exitCode()).as(out.err()).isZero();
      assertThat(out.err()).contains("Copied 2 entities in 1 table(s)");
      assertThat(targetTables.getTable("tricky")).hasValueSatisfying(t -> assertThat(t.name()).isEqualTo("Tricky"));
      assertThat(contents(targetTables, "Tricky")).isEqualTo(contents(sourceTables, "Tricky"));
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void aWrongKeyIsOneLineNamingTheRefusalOnH2(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService tables = db.newService(account);
        TrestleServer server = TrestleServer.builder(tables).port(0).account(account, KEY).build().start()) {
      CliRun run = CliRun.run("copy", "--from-endpoint", server.endpoint(account),
          "--from-key", "d3Jvbmc=", "--to-db", "jdbc:h2:mem:unused-" + UUID.randomUUID());
      assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
      assertThat(run.errLines()).singleElement().asString().contains("403").contains("AuthenticationFailed");
    }
  }

  private static TableEntity tricky(String partitionKey, String rowKey) {
    return TableEntity.builder(partitionKey, rowKey)
        .put("Text", "line\nbreak \u263a").put("Int64", Long.MIN_VALUE).put("Double", Double.NaN)
        .put("Whole", 2.0).put("NegZero", -0.0).put("Flag", true).put("When", Instant.parse("1601-01-01T00:00:00.0000001Z"))
        .put("Id", new UUID(7, 9)).put("Bytes", new byte[] {0, -1}).put("Int32", Integer.MIN_VALUE).build();
  }

  private static List<String> credentials(TestDatabase db) {
    List<String> flags = new ArrayList<>();
    if (db.username() != null) {
      flags.addAll(List.of("--to-db-user", db.username(), "--to-db-password", db.password()));
    }
    return flags;
  }

  private static List<Map.Entry<String, Object>> contents(TableService service, String table) {
    List<Map.Entry<String, Object>> all = new ArrayList<>();
    EntityQuery query = EntityQuery.all();
    while (true) {
      EntityPage page = service.tableClient(table).query(query);
      page.entities().forEach(e -> all.add(Map.entry(e.partitionKey() + "|" + e.rowKey(), (Object) e.properties())));
      if (page.next().isEmpty()) {
        return all;
      }
      query = query.withContinuation(page.next().get());
    }
  }
}
