package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * copy to and from a Table endpoint over HTTP with Shared Key, against a Trestle server, on H2 and
 * PostgreSQL.
 */
@MultiShardWrites(
    "copies and imports into a database load rows of several partitions per transaction")
class EndpointCopyTest {
  private static final String KEY = TrestleServer.DEV_ACCOUNT_KEY;

  @DatabaseTest
  void copiesFromAnEndpointIntoADatabaseAndBackIntoAnotherAccount(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(sourceTables)
                .port(0)
                .account(source, KEY)
                .account(target, KEY)
                .build()
                .start()) {
      fill(sourceTables, "Big", 11);
      sourceTables.createTable("Tricky");
      sourceTables.tableClient("Tricky").insert(tricky("it's a key", "with space & %"));
      sourceTables.tableClient("Tricky").insert(tricky("caf\u00e9 \uD83D\uDE00", "+plus=&"));

      try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
        CliRun in =
            CliRun.run(
                CliDatabases.args(
                    List.of(
                        "copy",
                        "--from-endpoint",
                        server.endpoint(source),
                        "--from-key",
                        KEY,
                        "--to-db",
                        empty.url()),
                    credentials(db)));
        assertThat(in.exitCode()).as(in.err()).isZero();
        assertThat(in.err())
            .contains("Copied 1102 entities in 2 table(s)")
            .doesNotContain("are not kept");
        try (TableService copied =
            TableService.builder()
                .jdbcUrl(empty.url())
                .credentials(db.username(), db.password())
                .build()) {
          assertThat(contents(copied, "Big")).isEqualTo(contents(sourceTables, "Big"));
          assertThat(contents(copied, "Tricky")).isEqualTo(contents(sourceTables, "Tricky"));
        }
      }

      CliRun out =
          CliRun.run(
              CliDatabases.args(
                  List.of("copy"),
                  CliDatabases.flags(db),
                  "--account",
                  source,
                  "--table",
                  "tricky",
                  "--to-endpoint",
                  server.endpoint(target) + "/",
                  "--to-key",
                  KEY));
      assertThat(out.exitCode()).as(out.err()).isZero();
      assertThat(out.err())
          .contains("Copied 2 entities in 1 table(s)")
          .contains("sets each entity's Timestamp and ETag itself: the source's are not kept.");
      assertThat(targetTables.getTable("tricky"))
          .hasValueSatisfying(t -> assertThat(t.name()).isEqualTo("Tricky"));
      assertThat(contents(targetTables, "Tricky")).isEqualTo(contents(sourceTables, "Tricky"));
    }
  }

  @DatabaseTest
  void copiesIntoAnEndpointInBatchesOfAPartitionAndRetriesThrottledOnes(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    Recorder recorder = new Recorder(2);
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(targetTables)
                .port(0)
                .account(target, KEY)
                .wrapHandler(recorder::wrap)
                .build()
                .start()) {
      fill(sourceTables, "Big", 11);
      sourceTables.tableClient("Big").insert(TableEntity.builder("solo", "r").put("N", -1).build());

      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("copy"),
                  CliDatabases.flags(db),
                  "--account",
                  source,
                  "--table",
                  "Big",
                  "--to-endpoint",
                  server.endpoint(target),
                  "--to-key",
                  KEY));

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.err()).contains("Copied 1101 entities in 1 table(s)");
      assertThat(contents(targetTables, "Big")).isEqualTo(contents(sourceTables, "Big"));
      assertThat(recorder.count("POST $batch"))
          .isEqualTo(11 + 2); // one per partition of 100, two refused with 503
      assertThat(recorder.count("PUT Big(...)")).isEqualTo(1); // the partition of one
    }
  }

  @DatabaseTest
  void insertModeStopsAtAnExistingEntityAndWritesNothingOfItsBatch(TestDatabase db)
      throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(targetTables).port(0).account(target, KEY).build().start()) {
      fill(sourceTables, "Orders", 5);
      targetTables.createTable("Orders");
      targetTables
          .tableClient("Orders")
          .insert(TableEntity.builder("p3", "r37").put("N", 0).build());

      CliRun run =
          CliRun.run(
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
                  server.endpoint(target),
                  "--to-key",
                  KEY));

      assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .contains("(PartitionKey='p3', RowKey='r37')")
          .contains("409 EntityAlreadyExists")
          .contains("300 entities were written before it");
      List<Map.Entry<String, Object>> written = contents(targetTables, "Orders");
      assertThat(written).hasSize(301);
      assertThat(written)
          .filteredOn(e -> e.getKey().startsWith("p3|"))
          .singleElement()
          .satisfies(e -> assertThat(e.getKey()).isEqualTo("p3|r37"));
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void aPartitionTooLargeForOneBatchRequestGoesInPartsOnH2(TestDatabase db) throws Exception {
    String source = TestDatabase.newAccount();
    String target = TestDatabase.newAccount();
    Recorder recorder = new Recorder(0);
    try (TableService sourceTables = db.newService(source);
        TableService targetTables = db.newService(target);
        TrestleServer server =
            TrestleServer.builder(targetTables)
                .port(0)
                .account(target, KEY)
                .wrapHandler(recorder::wrap)
                .build()
                .start()) {
      // control characters take 6 bytes each in JSON (\u0001) but 2 in the writer's UTF-16 estimate
      String escaped = "\u0001".repeat(20_000);
      sourceTables.createTable("Wide");
      for (int r = 0; r < 60; r++) {
        sourceTables
            .tableClient("Wide")
            .insert(TableEntity.builder("p", "r" + r).put("Text", escaped).build());
      }

      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("copy"),
                  CliDatabases.flags(db),
                  "--account",
                  source,
                  "--to-endpoint",
                  server.endpoint(target),
                  "--to-key",
                  KEY));

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(contents(targetTables, "Wide")).isEqualTo(contents(sourceTables, "Wide"));
      assertThat(recorder.count("POST $batch")).isGreaterThan(2);
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void aWrongKeyIsOneLineNamingTheRefusalOnH2(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService tables = db.newService(account);
        TrestleServer server =
            TrestleServer.builder(tables).port(0).account(account, KEY).build().start()) {
      CliRun run =
          CliRun.run(
              "copy",
              "--from-endpoint",
              server.endpoint(account),
              "--from-key",
              "d3Jvbmc=",
              "--to-db",
              "jdbc:h2:mem:unused-" + UUID.randomUUID());
      assertThat(run.exitCode()).isEqualTo(ExitCode.AUTHENTICATION);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .contains("403")
          .contains("AuthenticationFailed")
          .contains("check the account key or SAS token");
    }
  }

  /** {@code partitions} partitions p0, p1, .. of 100 entities r0..r99 each. */
  static void fill(TableService tables, String table, int partitions) {
    tables.createTable(table);
    for (int p = 0; p < partitions; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < 100; r++) {
        batch.add(
            TableOperation.insert(
                TableEntity.builder("p" + p, "r" + r).put("N", p * 100 + r).build()));
      }
      tables.tableClient(table).submitTransaction(batch);
    }
  }

  /**
   * Counts requests as "METHOD last-segment" and answers the first few {@code $batch} requests 503
   * ServerBusy.
   */
  private static final class Recorder {
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final AtomicInteger throttled;

    Recorder(int throttledBatches) {
      this.throttled = new AtomicInteger(throttledBatches);
    }

    int count(String kind) {
      AtomicInteger count = counts.get(kind);
      return count == null ? 0 : count.get();
    }

    Handler wrap(Handler api) {
      return new Handler.Wrapper(api) {
        @Override
        public boolean handle(Request request, Response response, Callback callback)
            throws Exception {
          String path = request.getHttpURI().getPath();
          String kind =
              request.getMethod()
                  + " "
                  + path.substring(path.lastIndexOf('/') + 1).replaceAll("\\(.+\\)$", "(...)");
          counts.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
          if (kind.equals("POST $batch") && throttled.getAndDecrement() > 0) {
            Content.Source.consumeAll(request);
            response.setStatus(503);
            response.getHeaders().put("x-ms-error-code", "ServerBusy");
            response.write(
                true,
                ByteBuffer.wrap("{\"odata.error\":{\"code\":\"ServerBusy\"}}".getBytes()),
                callback);
            return true;
          }
          return super.handle(request, response, callback);
        }
      };
    }
  }

  static TableEntity tricky(String partitionKey, String rowKey) {
    return TableEntity.builder(partitionKey, rowKey)
        .put("Text", "line\nbreak \u263a")
        .put("Int64", Long.MIN_VALUE)
        .put("Double", Double.NaN)
        .put("Whole", 2.0)
        .put("NegZero", -0.0)
        .put("Flag", true)
        .put("When", Instant.parse("1601-01-01T00:00:00.0000001Z"))
        .put("Id", new UUID(7, 9))
        .put("Bytes", new byte[] {0, -1})
        .put("Int32", Integer.MIN_VALUE)
        .put("Big", (1L << 53) + 1)
        .put("Inf", Double.POSITIVE_INFINITY)
        .put("NegInf", Double.NEGATIVE_INFINITY)
        .put("Last", Instant.parse("9999-12-31T23:59:59.9999999Z"))
        .put("NoBytes", new byte[0])
        .put("Empty", "")
        .build();
  }

  static List<String> credentials(TestDatabase db) {
    List<String> flags = new ArrayList<>();
    if (db.username() != null) {
      flags.addAll(List.of("--to-db-user", db.username(), "--to-db-password", db.password()));
    }
    return flags;
  }

  static List<Map.Entry<String, Object>> contents(TableService service, String table) {
    List<Map.Entry<String, Object>> all = new ArrayList<>();
    EntityQuery query = EntityQuery.all();
    while (true) {
      EntityPage page = service.tableClient(table).query(query);
      page.entities()
          .forEach(
              e ->
                  all.add(Map.entry(e.partitionKey() + "|" + e.rowKey(), (Object) e.properties())));
      if (page.next().isEmpty()) {
        return all;
      }
      query = query.withContinuation(page.next().get());
    }
  }
}
