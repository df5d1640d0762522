package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import dev.trestle.cli.config.ServerSettings;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestCertificates;
import dev.trestle.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * serve with --cert/--key: HTTPS on the API port with the banner and connection string in https,
 * Bearer tokens without --oauth-allow-http, the operations port in plain HTTP; and the one-line
 * errors of a certificate that cannot serve.
 */
class ServeHttpsTest {
  @TempDir Path dir;

  @DatabaseTest
  void serveSpeaksHttpsAndAcceptsTokensOverIt(TestDatabase db) throws Exception {
    TestCertificates.Issued issued = TestCertificates.selfSigned("EC", "localhost");
    String account = TestDatabase.newAccount();
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--port",
                "0",
                "--ops-port",
                "0",
                "--account",
                account + ":" + TrestleServer.DEV_ACCOUNT_KEY,
                "--cert",
                issued.writeCertificate(dir.resolve("cert.pem")).toString(),
                "--key",
                issued.writeKeyTraditional(dir.resolve("key.pem")).toString(),
                "--oauth",
                "basic"));
    args.addAll(CliDatabases.flags(db));
    HttpClient https = HttpClient.newBuilder().sslContext(issued.clientContext()).build();

    try (ServerRuntime runtime = ServerRuntime.start(parse(args))) {
      // the certificate names localhost, not 127.0.0.1: the endpoint shown is one it is valid for
      String endpoint = runtime.endpoint(account);
      assertThat(endpoint).matches("https://localhost:\\d+/" + account);
      StringWriter banner = new StringWriter();
      ServeCommand.printBanner(runtime, new PrintWriter(banner));
      assertThat(banner.toString())
          .contains("serves the Table API at " + endpoint)
          .containsPattern(
              "certificate: CN=localhost, for localhost, valid until \\d{4}-\\d\\d-\\d\\d")
          .contains("DefaultEndpointsProtocol=https;AccountName=" + account + ";")
          .contains("TableEndpoint=" + endpoint + ";")
          .contains("health:   http://127.0.0.1:");

      HttpResponse<String> listed =
          https.send(
              HttpRequest.newBuilder(URI.create(endpoint + "/Tables"))
                  .header("Authorization", "Bearer " + token())
                  .header("x-ms-version", "2019-02-02")
                  .header("Accept", "application/json;odata=minimalmetadata")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
      assertThat(listed.body())
          .contains("\"odata.metadata\":\"" + endpoint + "/$metadata#Tables\"");

      HttpResponse<String> health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(runtime.operationsUrl() + "/health")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aKeyThatDoesNotMatchStopsTheStartWithOneLine() {
    TestCertificates.Issued issued = TestCertificates.selfSigned("EC", "localhost");
    TestCertificates.Issued other = TestCertificates.selfSigned("EC", "localhost");
    Path cert = issued.writeCertificate(dir.resolve("cert.pem"));
    Path otherKey = other.writeKeyPkcs8(dir.resolve("other.pem"));

    CliRun mismatched =
        CliRun.run("serve", "--port", "0", "--cert", cert.toString(), "--key", otherKey.toString());
    assertThat(mismatched.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(mismatched.errLines())
        .singleElement()
        .asString()
        .startsWith("trestle: --key: the private key in '" + otherKey + "' does not match");

    CliRun missing =
        CliRun.run(
            Map.of("TRESTLE_CERT", dir.resolve("nowhere.pem").toString()), "serve", "--port", "0");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(missing.errLines())
        .singleElement()
        .asString()
        .contains(
            "--cert (from TRESTLE_CERT): '" + dir.resolve("nowhere.pem") + "' does not exist.");
  }

  @Test
  void hostStyleUrlsAreOnUnlessSwitchedOffInEitherSpelling() {
    assertThat(parse(List.of("serve")).endpoint().hostStyleUrls()).isTrue();
    assertThat(parse(List.of("serve", "--disableProductStyleUrl")).endpoint().hostStyleUrls())
        .isFalse();
    assertThat(
            parse(List.of("serve", "--disable-product-style-url", "true"))
                .endpoint()
                .hostStyleUrls())
        .isFalse();
  }

  /** A token --oauth basic accepts: storage audience, an Entra ID issuer, within its lifetime. */
  private static String token() {
    Instant now = Instant.now();
    return new PlainJWT(
            new JWTClaimsSet.Builder()
                .audience("https://storage.azure.com")
                .issuer("https://sts.windows.net/some-tenant/")
                .notBeforeTime(Date.from(now.minusSeconds(60)))
                .expirationTime(Date.from(now.plusSeconds(3600)))
                .build())
        .serialize();
  }

  private static ServerSettings parse(List<String> args) {
    CommandLine commandLine =
        Trestle.commandLine(
            Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandLine.ParseResult result = commandLine.parseArgs(args.toArray(String[]::new));
    return ((ServeCommand) result.subcommand().commandSpec().userObject()).settings();
  }
}
