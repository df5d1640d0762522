package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
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

/** trestle count and trestle delete, on H2 and PostgreSQL. */
class ExtensionCommandsTest {

  private static String seeded(TestDatabase db) {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("Goods");
      TableClient goods = service.tableClient("Goods");
      for (String partition : List.of("a", "b", "c")) {
        for (int i = 0; i < 5; i++) {
          goods.insert(TableEntity.builder(partition, "r" + i).put("Price", i).build());
        }
      }
    }
    return account;
  }

  private static CliRun run(TestDatabase db, String account, String command, String... more) {
    List<String> rest = new ArrayList<>(List.of("--account", account, "--table", "Goods"));
    rest.addAll(List.of(more));
    return CliRun.run(
        CliDatabases.args(List.of(command), CliDatabases.flags(db), rest.toArray(String[]::new)));
  }

  @DatabaseTest
  void countsAndDeletesFromTheCommandLine(TestDatabase db) {
    String account = seeded(db);

    CliRun all = run(db, account, "count");
    assertThat(all.exitCode()).as(all.err()).isZero();
    assertThat(all.out().strip()).isEqualTo("15");
    assertThat(run(db, account, "count", "--filter", "Price ge 3").out().strip()).isEqualTo("6");

    CliRun partition = run(db, account, "delete", "--partition", "a");
    assertThat(partition.exitCode()).as(partition.err()).isZero();
    assertThat(partition.out()).startsWith("Deleted 5 entities of Goods");
    CliRun where = run(db, account, "delete", "--filter", "Price lt 2");
    assertThat(where.out()).startsWith("Deleted 4 entities of Goods");
    assertThat(run(db, account, "count").out().strip()).isEqualTo("6");
    assertThat(run(db, account, "delete", "--all").out()).startsWith("Deleted 6 entities");
    assertThat(run(db, account, "count").out().strip()).isEqualTo("0");
  }

  @DatabaseTest
  void deleteNeedsExactlyOneKindAndAMissingTableIsTableNotFound(TestDatabase db) {
    String account = seeded(db);

    CliRun none = run(db, account, "delete");
    assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE);
    CliRun both = run(db, account, "delete", "--all", "--partition", "a");
    assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run(db, account, "count").out().strip()).isEqualTo("15");

    CliRun missing =
        CliRun.run(
            CliDatabases.args(
                List.of("count"), CliDatabases.flags(db), "--account", account, "--table", "Nope"));
    assertThat(missing.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(missing.err()).contains("TableNotFound");
  }

  @DatabaseTest
  void serveWithExtensionsOffAnswersThemNotImplemented(TestDatabase db) throws Exception {
    String account = seeded(db);
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                "0",
                "--allow-anonymous",
                "--extensions",
                "off",
                "--account",
                account + ":" + dev.trestle.server.TrestleServer.DEV_ACCOUNT_KEY));
    args.addAll(CliDatabases.flags(db));
    HttpClient http = HttpClient.newHttpClient();

    try (ServerRuntime runtime = ServerRuntime.start(parseServe(args))) {
      HttpResponse<String> count =
          http.send(
              HttpRequest.newBuilder(URI.create(runtime.endpoint(account) + "/Goods()/$count"))
                  .header("x-ms-version", "2019-02-02")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(count.statusCode()).as(count.body()).isEqualTo(501);
      assertThat(count.headers().firstValue("x-ms-error-code")).hasValue("NotImplemented");
    }
    assertThat(parseServe(List.of("serve")).extensions()).isTrue();
    CliRun bad = CliRun.run("serve", "--extensions", "maybe", "--port", "0");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("--extensions").contains("on or off");
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

  @DatabaseTest
  void enablesReadsSweepsAndDisablesAChangeFeed(TestDatabase db) {
    String account = seeded(db);

    CliRun enabled = run(db, account, "feed", "--enable", "--retention", "PT1H");
    assertThat(enabled.exitCode()).as(enabled.err()).isZero();
    String start = enabled.out().strip();
    try (TableService service = db.newService(account)) {
      service.tableClient("Goods").insert(TableEntity.builder("d", "r0").build());
      service.tableClient("Goods").delete("a", "r0", "*");
    }
    CliRun read = run(db, account, "feed", "--read", "--from", start);
    assertThat(read.exitCode()).as(read.err()).isZero();
    List<String> lines = read.out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("\tinsert\td\tr0\tW/");
    assertThat(lines.get(1)).contains("\tdelete\ta\tr0");
    assertThat(read.err()).startsWith("next " + lines.get(1).split("\t")[0]);
    assertThat(run(db, account, "feed", "--sweep").out().strip()).isEqualTo("0");
    assertThat(run(db, account, "feed", "--disable").exitCode()).isZero();
    CliRun gone = run(db, account, "feed", "--read");
    assertThat(gone.err()).contains("ResourceNotFound");
    assertThat(run(db, account, "feed").exitCode()).isEqualTo(ExitCode.USAGE);
  }
}
