package dev.trestle.compat.js;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.ServerCertificate;
import dev.trestle.server.TrestleServer;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestCertificates;
import dev.trestle.testing.TestDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code test-https/} (the Azure Tables SDK for JavaScript over HTTPS, with host-style URLs,
 * SAS clients, the secondary host and a token credential) against a Trestle server with a
 * certificate made here and trusted by Node through {@code NODE_EXTRA_CA_CERTS}, once per database.
 */
class JsHttpsTest {
  private static final Logger LOG = LoggerFactory.getLogger(JsHttpsTest.class);
  private static final Path SUITE_DIR = Path.of("").toAbsolutePath();

  @TempDir Path dir;

  @DatabaseTest
  void javascriptSdkWorksOverHttpsWithHostStyleUrls(TableService tables, TestDatabase database)
      throws Exception {
    NodeRunner node = new NodeRunner(SUITE_DIR);
    node.requireNode();
    node.installDependencies();
    TestCertificates.Issued certificate =
        TestCertificates.selfSigned("EC", "*.table.trestle.test", "localhost");
    Path cert = certificate.writeCertificate(dir.resolve("cert.pem"));
    String account = tables.accountName();
    try (TrestleServer server =
        TrestleServer.builder(tables)
            .port(0)
            .account(account, TrestleServer.DEV_ACCOUNT_KEY)
            .tls(
                ServerCertificate.fromPem(
                    cert, certificate.writeKeyTraditional(dir.resolve("key.pem")), null))
            .tokens(TokenAuthentication.basic())
            .build()
            .start()) {
      NodeRunner.Result result =
          node.run(
              List.of("node", "--test", "--test-reporter=tap", "test-https/hoststyle.test.mjs"),
              Map.of(
                  "TRESTLE_HTTPS_PORT",
                  Integer.toString(server.port()),
                  "TRESTLE_ACCOUNT",
                  account,
                  "TRESTLE_ACCOUNT_KEY",
                  TrestleServer.DEV_ACCOUNT_KEY,
                  "NODE_EXTRA_CA_CERTS",
                  cert.toString()),
              300);
      TapSummary summary = TapSummary.of(result.output());
      LOG.info(
          "JavaScript SDK over HTTPS, host-style, on {}: {} cases, {} passed, {} failed",
          database.kind().displayName(),
          summary.tests(),
          summary.passed(),
          summary.failed());
      assertThat(summary.failed()).as(summary.failures()).isZero();
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(summary.tests()).as(result.output()).isEqualTo(summary.passed()).isEqualTo(6);
    }
  }
}
