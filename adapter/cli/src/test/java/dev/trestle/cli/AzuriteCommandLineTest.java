package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.cli.config.ConfigurationException;
import dev.trestle.cli.config.ServerSettings;
import dev.trestle.server.TrestleServer;
import dev.trestle.server.auth.SharedKeySigner;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Azurite's table command line and environment start Trestle with the same meaning, on H2 and
 * PostgreSQL; what Trestle cannot honour is refused in one line with exit code 2.
 */
class AzuriteCommandLineTest {
  private static final String KEY1 = "a2V5LW9uZS1mb3ItYXp1cml0ZS10ZXN0cw==";
  private static final String KEY2 = "c2Vjb25kLWtleS1mb3ItYXp1cml0ZQ==";
  private static final String KEY3 = "dGhpcmQta2V5LWZvci1henVyaXRl";

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  @DatabaseTest
  void anAzuriteCommandLineStartsTrestleWithLooseAndSkippedVersionCheck(TestDatabase db)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "azurite-table",
                "--tableHost",
                "0.0.0.0",
                "--tablePort",
                "0",
                "--loose",
                "--skipApiVersionCheck",
                "--disableTelemetry"));
    // --location is the H2 data folder; on PostgreSQL the database comes from --db instead
    args.addAll(
        db.kind() == TestDatabase.Kind.H2
            ? List.of("--location", dir.resolve("data").toString())
            : CliDatabases.flags(db));
    ServerSettings settings = parseServe(Map.of(), args);
    assertThat(settings.host()).isEqualTo("0.0.0.0");
    assertThat(settings.leniency().undatedSharedKey()).isTrue();
    assertThat(settings.leniency().skipApiVersionCheck()).isTrue();

    try (ServerRuntime runtime = ServerRuntime.start(settings)) {
      String endpoint = runtime.endpoint("devstoreaccount1");
      String table = "Azurite" + Long.toString(System.nanoTime(), 36);
      HttpResponse<String> created =
          send(
              signedLite("POST", endpoint, "/Tables", TrestleServer.DEV_ACCOUNT_KEY, null)
                  .header("x-ms-version", "2099-01-01")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\":\"" + table + "\"}")));
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      assertThat(created.headers().firstValue("x-ms-version")).hasValue("2099-01-01");
      HttpResponse<String> listed =
          send(signedLite("GET", endpoint, "/Tables", TrestleServer.DEV_ACCOUNT_KEY, null).GET());
      assertThat(listed.statusCode()).isEqualTo(200);
      assertThat(listed.body()).contains(table);
    }
    if (db.kind() == TestDatabase.Kind.H2) {
      assertThat(dir.resolve("data/trestle.mv.db")).exists();
    }
  }

  @DatabaseTest
  void withoutLooseAnUndatedSharedKeyAndAnUnknownVersionAreRefusedAsByAzure(TestDatabase db)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("serve", "--tablePort", "0"));
    args.addAll(CliDatabases.flags(db));
    try (ServerRuntime runtime = ServerRuntime.start(parseServe(Map.of(), args))) {
      String endpoint = runtime.endpoint("devstoreaccount1");
      HttpResponse<String> undated =
          send(signedLite("GET", endpoint, "/Tables", TrestleServer.DEV_ACCOUNT_KEY, null).GET());
      assertThat(undated.statusCode()).isEqualTo(403);
      assertThat(undated.headers().firstValue("x-ms-error-code")).hasValue("AuthenticationFailed");

      HttpResponse<String> tooNew =
          send(
              signedLite("GET", endpoint, "/Tables", TrestleServer.DEV_ACCOUNT_KEY, now())
                  .header("x-ms-version", "2099-01-01")
                  .GET());
      assertThat(tooNew.statusCode()).isEqualTo(400);
      assertThat(tooNew.headers().firstValue("x-ms-error-code")).hasValue("InvalidHeaderValue");
      assertThat(tooNew.body()).contains("x-ms-version");

      HttpResponse<String> newestKnown =
          send(
              signedLite("GET", endpoint, "/Tables", TrestleServer.DEV_ACCOUNT_KEY, now())
                  .header("x-ms-version", dev.trestle.model.TableLimits.NEWEST_API_VERSION)
                  .GET());
      assertThat(newestKnown.statusCode()).isEqualTo(200);
    }
  }

  @DatabaseTest
  void azuriteAccountsServeEachAccountWithEitherKeyAndNotTheDevelopmentAccount(TestDatabase db)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("serve", "--tablePort", "0"));
    args.addAll(CliDatabases.flags(db));
    String first = TestDatabase.newAccount();
    String second = TestDatabase.newAccount();
    ServerSettings settings =
        parseServe(
            Map.of("AZURITE_ACCOUNTS", first + ":" + KEY1 + ":" + KEY2 + ";" + second + ":" + KEY3),
            args);
    assertThat(settings.accounts())
        .extracting(dev.trestle.cli.config.Account::name)
        .containsExactly(first, second);

    try (ServerRuntime runtime = ServerRuntime.start(settings)) {
      for (String[] accountAndKey : new String[][] {{first, KEY1}, {first, KEY2}, {second, KEY3}}) {
        String endpoint = runtime.endpoint(accountAndKey[0]);
        HttpResponse<String> listed =
            send(signedLite("GET", endpoint, "/Tables", accountAndKey[1], now()).GET());
        assertThat(listed.statusCode()).as(accountAndKey[0]).isEqualTo(200);
      }
      HttpResponse<String> wrongKey =
          send(signedLite("GET", runtime.endpoint(second), "/Tables", KEY1, now()).GET());
      assertThat(wrongKey.statusCode()).isEqualTo(403);
      String devEndpoint = runtime.endpoint("devstoreaccount1");
      HttpResponse<String> dev =
          send(
              signedLite("GET", devEndpoint, "/Tables", TrestleServer.DEV_ACCOUNT_KEY, now())
                  .GET());
      assertThat(dev.statusCode()).isEqualTo(403);
    }
  }

  @Test
  void trestleAccountVariableWinsOverAzuriteAccounts() {
    ServerSettings settings =
        parseServe(
            Map.of("TRESTLE_ACCOUNT", "trestle:" + KEY1, "AZURITE_ACCOUNTS", "azurite:" + KEY2),
            List.of("serve"));
    assertThat(settings.accounts())
        .extracting(dev.trestle.cli.config.Account::name)
        .containsExactly("trestle");
  }

  @Test
  void azuriteSkipApiVersionCheckVariableIsRead() {
    ServerSettings settings =
        parseServe(Map.of("AZURITE_SKIP_API_VERSION_CHECK", "true"), List.of("serve"));
    assertThat(settings.leniency().skipApiVersionCheck()).isTrue();
    assertThat(parseServe(Map.of(), List.of("serve")).leniency())
        .isEqualTo(ServerSettings.Leniency.NONE);
  }

  @Test
  void inMemoryPersistenceIsH2InMemoryAndTheBannerSaysItIsNotDurable() {
    ServerSettings settings =
        parseServe(Map.of(), List.of("serve", "--inMemoryPersistence", "--tablePort", "0"));
    assertThat(settings.database().isInMemory()).isTrue();
    try (ServerRuntime runtime = ServerRuntime.start(settings)) {
      StringWriter banner = new StringWriter();
      ServeCommand.printBanner(runtime, new PrintWriter(banner));
      assertThat(banner.toString()).contains("NOT durable");
    }
  }

  @Test
  void silentTurnsTheAccessLogOffAndDebugWritesALogFile() {
    ServerSettings settings =
        parseServe(
            Map.of(), List.of("serve", "-s", "-d", dir.resolve("logs/debug.log").toString(), "-L"));
    assertThat(settings.logOutput().accessLog()).isFalse();
    assertThat(settings.logOutput().file()).hasValue(dir.resolve("logs/debug.log"));
    assertThat(settings.logLevel()).isEqualTo("debug");
    assertThat(settings.leniency().undatedSharedKey()).isTrue();
    assertThat(parseServe(Map.of(), List.of("serve")).logOutput())
        .isEqualTo(ServerSettings.LogOutput.DEFAULT);
  }

  @Test
  void azuritesOauthBasicIsTrestlesBasicTokenMode() {
    ServerSettings settings = parseServe(Map.of(), List.of("azurite-table", "--oauth", "basic"));
    assertThat(settings.tokens())
        .hasValueSatisfying(
            tokens ->
                assertThat(tokens.mode())
                    .isEqualTo(dev.trestle.server.auth.TokenAuthentication.Mode.BASIC));
  }

  @Test
  void azuriteFlagsThatContradictTrestleFlagsAreRefused() {
    assertThatThrownBy(
            () -> parseServe(Map.of(), List.of("serve", "--debug", "x.log", "--log-level", "warn")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("--debug means --log-level debug");
    assertThatThrownBy(
            () -> parseServe(Map.of(), List.of("serve", "--silent", "--access-log", "true")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("--silent");
  }

  @Test
  void whatTrestleCannotHonourIsOneLineAndExitCodeTwo() throws Exception {
    for (List<String> args :
        List.of(
            List.of("azurite-table", "--blobHost", "0.0.0.0"),
            List.of("azurite-table", "--queuePort", "10001"),
            List.of("azurite-table", "--tableKeepAliveTimeout", "5"),
            List.of("azurite-table", "--inMemoryPersistence", "--location", dir.toString()),
            List.of("azurite-table", "--location", dir.toString(), "--db", "jdbc:h2:mem:x"),
            List.of("azurite-table", "--debug"))) {
      CliRun run = CliRun.run(args.toArray(String[]::new));
      assertThat(run.exitCode()).as(args.toString()).isEqualTo(ExitCode.USAGE);
      assertThat(run.errLines()).as(run.err()).hasSize(1);
    }
    CliRun blob = CliRun.run("azurite-table", "--blobPort", "10000");
    assertThat(blob.err()).contains("--blobPort").contains("Table API only");
    assertThat(Files.list(dir)).isEmpty();
  }

  @Test
  void helpNamesAzuritesOptionsBesideTrestles() {
    CliRun run = CliRun.run("azurite-table", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("--host, --tableHost")
        .contains("--port, --tablePort")
        .contains("--location")
        .contains("--inMemoryPersistence")
        .contains("--skipApiVersionCheck")
        .contains("AZURITE_ACCOUNTS")
        .doesNotContain("--blobHost");
  }

  private static String now() {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
  }

  /** A Shared Key Lite request; without a date it signs an empty date line, as Azurite's tests. */
  private static HttpRequest.Builder signedLite(
      String method, String endpoint, String path, String key, String date) {
    URI uri = URI.create(endpoint + path);
    String account = uri.getPath().split("/")[1];
    String stringToSign =
        SharedKeySigner.liteStringToSign(date == null ? "" : date, "/" + account + uri.getPath());
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .header("Accept", "application/json;odata=nometadata")
            .header(
                "Authorization",
                "SharedKeyLite "
                    + account
                    + ":"
                    + SharedKeySigner.ofBase64(key).signBase64(stringToSign));
    if (date != null) {
      request.header("x-ms-date", date);
    }
    return request;
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static ServerSettings parseServe(Map<String, String> environment, List<String> args) {
    CommandLine commandLine =
        Trestle.commandLine(
            environment, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandLine.ParseResult result = commandLine.parseArgs(args.toArray(String[]::new));
    return ((ServeCommand) result.subcommand().commandSpec().userObject()).settings();
  }
}
