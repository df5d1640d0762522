package dev.trestle.compat.python;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the unittest suite in {@code test/} (the Azure Tables SDK for Python: types, queries and
 * paging, transactions, conditional updates, SAS, tables) against a Trestle server on a free port,
 * once per database. Every Python case must pass.
 */
class PythonCompatibilityTest {
  private static final Logger LOG = LoggerFactory.getLogger(PythonCompatibilityTest.class);
  private static final Path SUITE_DIR = Path.of("").toAbsolutePath();
  private static final Pattern SUMMARY =
      Pattern.compile("(?m)^SUMMARY tests=(\\d+) failures=(\\d+) errors=(\\d+) skipped=(\\d+)$");

  @DatabaseTest
  void pythonSuitePasses(TableService tables, TestDatabase database) throws Exception {
    PythonRunner python = new PythonRunner(SUITE_DIR);
    String sdkVersion = python.requireSdk();
    try (TrestleServer server = TrestleServer.builder(tables).port(0).build().start()) {
      PythonRunner.Result result =
          python.run(
              List.of("run_suite.py"),
              Map.of(
                  "TRESTLE_ENDPOINT",
                  server.endpoint("devstoreaccount1"),
                  "TRESTLE_ACCOUNT",
                  "devstoreaccount1",
                  "TRESTLE_ACCOUNT_KEY",
                  TrestleServer.DEV_ACCOUNT_KEY),
              900);
      Matcher summary = SUMMARY.matcher(result.output());
      assertThat(summary.find()).as(result.output()).isTrue();
      int tests = Integer.parseInt(summary.group(1));
      int failures = Integer.parseInt(summary.group(2));
      int errors = Integer.parseInt(summary.group(3));
      LOG.info(
          "Python compatibility suite (azure-data-tables {}) on {}: {} cases, {} failed, {} errors",
          sdkVersion,
          database.kind().displayName(),
          tests,
          failures,
          errors);

      assertThat(failures + errors).as(result.output()).isZero();
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(tests).as(result.output()).isPositive();
    }
  }
}
