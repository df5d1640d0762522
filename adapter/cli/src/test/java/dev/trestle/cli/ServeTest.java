package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.cli.config.ServerSettings;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** serve on H2 and PostgreSQL: the Table API answers, and so do /health and /metrics. */
class ServeTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @DatabaseTest
  void serveAnswersHealthMetricsAndTheTableApi(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                "0",
                "--allow-anonymous",
                "--account",
                account + ":" + dev.trestle.server.TrestleServer.DEV_ACCOUNT_KEY));
    args.addAll(CliDatabases.flags(db));

    try (ServerRuntime runtime = ServerRuntime.start(parseServe(args))) {
      String root = runtime.rootUrl();
      assertThat(runtime.endpoint(account)).isEqualTo(root + "/" + account);

      HttpResponse<String> health = get(root + "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"database\":\"UP\"");

      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(runtime.endpoint(account) + "/Tables"))
                  .header("Content-Type", "application/json")
                  .header("Accept", "application/json;odata=nometadata")
                  .header("x-ms-version", "2019-02-02")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\":\"ServeTest\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      assertThat(get(runtime.endpoint(account) + "/Tables").body()).contains("ServeTest");

      String metrics = get(root + "/metrics").body();
      assertThat(metrics)
          .contains("trestle_requests_seconds_count{operation=\"CreateTable\",status=\"201\"} 1")
          .contains("trestle_requests_seconds_count{operation=\"QueryTables\",status=\"200\"} 1")
          .contains("hikaricp_connections_active{pool=\"trestle\"}")
          .contains("jvm_memory_used_bytes");
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void anOpsPortServesHealthAndMetricsAndTheApiPortNoLongerDoesOnH2(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                "0",
                "--ops-port",
                "0",
                "--allow-anonymous",
                "--account",
                account + ":" + dev.trestle.server.TrestleServer.DEV_ACCOUNT_KEY));
    args.addAll(CliDatabases.flags(db));

    try (ServerRuntime runtime = ServerRuntime.start(parseServe(args))) {
      String ops = runtime.operationsUrl();
      assertThat(ops).matches("http://127\\.0\\.0\\.1:\\d+").isNotEqualTo(runtime.rootUrl());
      assertThat(get(runtime.endpoint(account) + "/Tables").statusCode()).isEqualTo(200);

      HttpResponse<String> health = get(ops + "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"database\":\"UP\"");
      assertThat(get(ops + "/metrics").body())
          .contains("trestle_requests_seconds_count{operation=\"QueryTables\",status=\"200\"} 1");
      assertThat(get(ops + "/" + account + "/Tables").statusCode()).isEqualTo(404);

      // on the API port they are paths like any other: no account is called "health"
      for (String path : List.of("/health", "/metrics")) {
        HttpResponse<String> api = get(runtime.rootUrl() + path);
        assertThat(api.statusCode()).as(path).isEqualTo(403);
        assertThat(api.body()).as(path).doesNotContain("\"database\"").doesNotContain("jvm_");
      }

      StringWriter banner = new StringWriter();
      ServeCommand.printBanner(runtime, new PrintWriter(banner));
      assertThat(banner.toString())
          .contains("health:   " + ops + "/health    metrics: " + ops + "/metrics");
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Accept", "application/json;odata=nometadata")
            .header("x-ms-version", "2019-02-02")
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @DatabaseTest
  void indexesDeclaredInTheSettingsAreCreatedAtStartUp(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (dev.trestle.TableService service = db.newService(account)) {
      service.createTable("Orders");
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                "0",
                "--account",
                account + ":" + dev.trestle.server.TrestleServer.DEV_ACCOUNT_KEY,
                "--index",
                "Orders:Status:String",
                "--index",
                account
                    + "/Orders:Timestamp:DateTime,Missing:Status:String,Orders:Region:String+Total:Double"));
    args.addAll(CliDatabases.flags(db));
    CommandLine commandLine =
        Trestle.commandLine(
            java.util.Map.of(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()));
    ServeCommand serve =
        (ServeCommand)
            commandLine
                .parseArgs(args.toArray(String[]::new))
                .subcommand()
                .commandSpec()
                .userObject();
    List<dev.trestle.cli.config.IndexDeclaration> declared = serve.declaredIndexes();
    assertThat(declared)
        .extracting(Object::toString)
        .containsExactly(
            "Orders:Status:String",
            account + "/Orders:Timestamp:DateTime",
            "Missing:Status:String",
            "Orders:Region:String+Total:Double");
    try (ServerRuntime runtime = ServerRuntime.start(serve.settings())) {
      DeclaredIndexes.createInBackground(runtime, declared);
      dev.trestle.TableService tables = runtime.tableService().forAccount(account);
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (tables.listIndexes("Orders").size() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(tables.listIndexes("Orders"))
          .extracting(dev.trestle.PropertyIndexInfo::properties)
          .containsExactlyInAnyOrder(
              List.of(new dev.trestle.IndexedProperty("Status", dev.trestle.EdmType.STRING)),
              List.of(new dev.trestle.IndexedProperty("Timestamp", dev.trestle.EdmType.DATE_TIME)),
              List.of(
                  new dev.trestle.IndexedProperty("Region", dev.trestle.EdmType.STRING),
                  new dev.trestle.IndexedProperty("Total", dev.trestle.EdmType.DOUBLE)));
    }

    CliRun bad = CliRun.run("serve", "--index", "Orders:Status");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("--index").contains("TABLE:PROPERTY:TYPE");
    CliRun badSecond = CliRun.run("serve", "--index", "Orders:Status:String+Total");
    assertThat(badSecond.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(badSecond.err()).contains("Orders:Status:String+Placed:DateTime");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "WRITE_DELAY=500",
        "DB_CLOSE_ON_EXIT=TRUE",
        "LOG=0",
        "FILE_LOCK=NO",
        "LOCK_MODE=0",
        "INIT=SET WRITE_DELAY 500",
        "INIT=RUNSCRIPT FROM 'x.sql'"
      })
  void anH2SettingThatLosesAcknowledgedWritesStopsServeWithOneLineNamingIt(
      String setting, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    CliRun run =
        CliRun.run(
            java.util.Map.of("TRESTLE_DB", "jdbc:h2:file:" + dir.resolve("t") + ";" + setting),
            "serve",
            "--port",
            "0");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines()[0]).contains(setting.substring(0, setting.indexOf('=')));
    assertThat(dir).isEmptyDirectory();
  }

  private static ServerSettings parseServe(List<String> args) {
    CommandLine commandLine =
        Trestle.commandLine(
            java.util.Map.of(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()));
    CommandLine.ParseResult result = commandLine.parseArgs(args.toArray(String[]::new));
    return ((ServeCommand) result.subcommand().commandSpec().userObject()).settings();
  }
}
