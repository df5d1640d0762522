package dev.trestle.compat.js;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the node:test suite in {@code test/} (the Azure Tables SDK for JavaScript, plus raw HTTP in
 * the shapes other SDKs send) against a Trestle server on a free port, once per database. Every
 * JavaScript case must pass.
 */
class JsCompatibilityTest {
  private static final Logger LOG = LoggerFactory.getLogger(JsCompatibilityTest.class);
  private static final Path SUITE_DIR = Path.of("").toAbsolutePath();

  @DatabaseTest
  void javascriptSuitePasses(TableService tables, TestDatabase database) throws Exception {
    NodeRunner node = new NodeRunner(SUITE_DIR);
    node.requireNode();
    node.installDependencies();
    try (TrestleServer server = TrestleServer.builder(tables).port(0).build().start()) {
      List<String> command = new ArrayList<>(List.of("node", "--test", "--test-reporter=tap"));
      command.addAll(testFiles());
      NodeRunner.Result result =
          node.run(
              command,
              Map.of(
                  "TRESTLE_ENDPOINT",
                  server.endpoint("devstoreaccount1"),
                  "TRESTLE_ACCOUNT",
                  "devstoreaccount1",
                  "TRESTLE_ACCOUNT_KEY",
                  TrestleServer.DEV_ACCOUNT_KEY),
              900);
      TapSummary summary = TapSummary.of(result.output());
      LOG.info(
          "JavaScript compatibility suite on {}: {} cases, {} passed, {} failed, {} todo",
          database.kind().displayName(),
          summary.tests(),
          summary.passed(),
          summary.failed(),
          summary.todo());

      assertThat(summary.failed()).as(summary.failures()).isZero();
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(summary.tests())
          .as(result.output())
          .isPositive()
          .isEqualTo(summary.passed() + summary.todo());
    }
  }

  private static List<String> testFiles() throws IOException {
    try (Stream<Path> files = Files.list(SUITE_DIR.resolve("test"))) {
      return files
          .map(file -> "test/" + file.getFileName())
          .filter(name -> name.endsWith(".test.mjs"))
          .sorted()
          .toList();
    }
  }
}
