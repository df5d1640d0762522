package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import dev.trestle.cli.config.ServerSettings;
import dev.trestle.cli.ops.JsonLogEncoder;
import dev.trestle.cli.ops.RequestLog;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * serve's access log (one info line per request, SAS signature redacted, both request ids), its
 * JSON form, the build info in /metrics and /health, and Bearer tokens switched on by flags.
 */
class AccessLogTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Logger requestLog = (Logger) LoggerFactory.getLogger(RequestLog.LOGGER);

  @BeforeEach
  void capture() {
    lines.start();
    requestLog.addAppender(lines);
  }

  @AfterEach
  void release() {
    requestLog.detachAppender(lines);
  }

  @DatabaseTest
  void eachRequestIsOneInfoLineWithTheSignatureRedactedAndBothRequestIds(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    try (ServerRuntime runtime = ServerRuntime.start(serve(db, account))) {
      HttpResponse<String> refused =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          runtime.endpoint(account)
                              + "/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rl&se=2099-01-01"
                              + "&sig=TopSecretSignature%3D"))
                  .header("x-ms-client-request-id", "sdk-call-42")
                  .header("x-ms-version", "2019-02-02")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(403);
      String requestId = refused.headers().firstValue("x-ms-request-id").orElseThrow();

      ILoggingEvent line = lineFor(requestId);
      assertThat(line.getLevel().toString()).isEqualTo("INFO");
      assertThat(line.getFormattedMessage())
          .startsWith("GET /" + account + "/Tables?sv=2019-02-02&")
          .contains("&sig=REDACTED")
          .contains(" 403 AuthenticationFailed QueryTables account=" + account + " ")
          .contains("out=" + refused.body().getBytes(StandardCharsets.UTF_8).length + "B")
          .contains("request-id=" + requestId)
          .endsWith("client-request-id=sdk-call-42")
          .doesNotContain("TopSecret");

      JsonNode json =
          new ObjectMapper().readTree(new String(encodeAsJson(line), StandardCharsets.UTF_8));
      assertThat(json.get("level").asText()).isEqualTo("INFO");
      assertThat(json.get("logger").asText()).isEqualTo(RequestLog.LOGGER);
      assertThat(Instant.parse(json.get("time").asText())).isBeforeOrEqualTo(Instant.now());
      assertThat(json.get("method").asText()).isEqualTo("GET");
      assertThat(json.get("path").asText()).contains("sig=REDACTED").doesNotContain("TopSecret");
      assertThat(json.get("status").asInt()).isEqualTo(403);
      assertThat(json.get("errorCode").asText()).isEqualTo("AuthenticationFailed");
      assertThat(json.get("operation").asText()).isEqualTo("QueryTables");
      assertThat(json.get("account").asText()).isEqualTo(account);
      assertThat(json.get("durationMs").isNumber()).isTrue();
      assertThat(json.get("bytesOut").asLong()).isEqualTo(refused.body().length());
      assertThat(json.get("requestId").asText()).isEqualTo(requestId);
      assertThat(json.get("clientRequestId").asText()).isEqualTo("sdk-call-42");

      String metrics = get(runtime.rootUrl() + "/metrics").body();
      String kind = db.kind() == TestDatabase.Kind.H2 ? "H2" : "PostgreSQL";
      assertThat(metrics)
          .containsPattern(
              "trestle_build_info\\{database=\"" + kind + "\",version=\"[^\"]+\"} 1(\\.0)?\\n");
      assertThat(get(runtime.rootUrl() + "/health").body())
          .matches(
              "\\{\"status\":\"UP\",\"database\":\"UP\",\"databaseKind\":\""
                  + kind
                  + "\",\"version\":\"[^\"]+\"}");
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void oauthBasicFromTheFlagsAcceptsABearerTokenOnH2(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    List<String> args = serveArgs(db, account);
    args.addAll(List.of("--oauth", "basic", "--oauth-allow-http", "--log-format", "json"));
    ServerSettings settings = parse(args);
    assertThat(settings.logFormat()).isEqualTo(ServerSettings.LogFormat.JSON);
    try (ServerRuntime runtime = ServerRuntime.start(settings)) {
      Instant now = Instant.now();
      String token =
          new PlainJWT(
                  new JWTClaimsSet.Builder()
                      .audience("https://storage.azure.com")
                      .issuer("https://sts.windows.net/some-tenant/")
                      .notBeforeTime(Date.from(now.minusSeconds(60)))
                      .expirationTime(Date.from(now.plusSeconds(3600)))
                      .build())
              .serialize();
      HttpResponse<String> listed =
          http.send(
              HttpRequest.newBuilder(URI.create(runtime.endpoint(account) + "/Tables"))
                  .header("Authorization", "Bearer " + token)
                  .header("x-ms-version", "2019-02-02")
                  .header("Accept", "application/json;odata=nometadata")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    }
  }

  @DatabaseTest
  void aHostStyleRequestsLineNamesItsAccount(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (ServerRuntime runtime = ServerRuntime.start(serve(db, account))) {
      URI root = URI.create(runtime.rootUrl());
      String response;
      try (java.net.Socket socket = new java.net.Socket(root.getHost(), root.getPort())) {
        socket.setSoTimeout(10_000);
        String request =
            "GET /Tables HTTP/1.1\r\nHost: "
                + account
                + ".table.localhost:"
                + root.getPort()
                + "\r\nx-ms-version: 2019-02-02\r\nConnection: close\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      }
      java.util.regex.Matcher id =
          java.util.regex.Pattern.compile("(?i)x-ms-request-id: (\\S+)").matcher(response);
      assertThat(id.find()).as(response).isTrue();
      ILoggingEvent line = lineFor(id.group(1));
      assertThat(line.getFormattedMessage())
          .startsWith("GET /Tables ")
          .contains(" QueryTables account=" + account + " ");
      JsonNode json =
          new ObjectMapper().readTree(new String(encodeAsJson(line), StandardCharsets.UTF_8));
      assertThat(json.get("account").asText()).isEqualTo(account);
    }
  }

  private ILoggingEvent lineFor(String requestId) throws InterruptedException {
    // the listener hears of a request once its response is sent, which may be just after the
    // client has it
    for (int i = 0; i < 100; i++) {
      for (ILoggingEvent event : List.copyOf(lines.list)) {
        if (event.getFormattedMessage().contains(requestId)) {
          return event;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no access log line for request " + requestId + ": " + lines.list);
  }

  private static byte[] encodeAsJson(ILoggingEvent event) {
    JsonLogEncoder encoder = new JsonLogEncoder();
    encoder.start();
    return encoder.encode(event);
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static ServerSettings serve(TestDatabase db, String account) {
    return parse(serveArgs(db, account));
  }

  private static List<String> serveArgs(TestDatabase db, String account) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                "0",
                "--account",
                account + ":" + TrestleServer.DEV_ACCOUNT_KEY));
    args.addAll(CliDatabases.flags(db));
    return args;
  }

  private static ServerSettings parse(List<String> args) {
    CommandLine commandLine =
        Trestle.commandLine(
            Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandLine.ParseResult result = commandLine.parseArgs(args.toArray(String[]::new));
    return ((ServeCommand) result.subcommand().commandSpec().userObject()).settings();
  }
}
