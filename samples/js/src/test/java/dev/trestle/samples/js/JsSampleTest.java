package dev.trestle.samples.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code sample.mjs} with Node.js against a Trestle server on a free port. Installs the SDK
 * with {@code npm ci} when {@code node_modules} is missing. Without Node.js or the SDK the test is
 * skipped on a developer's machine but fails in CI ({@code CI=true}), where the sample must run.
 */
class JsSampleTest {
  private static final Path SAMPLE_DIR = Path.of("").toAbsolutePath();

  @Test
  void sampleRunsUnchangedAgainstTrestle() throws Exception {
    requireNode();
    installSdk();
    try (TableService tables =
            TableService.builder()
                .jdbcUrl("jdbc:h2:mem:js-sample-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
                .build();
        TrestleServer server = TrestleServer.builder(tables).port(0).build().start()) {
      String connectionString =
          "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
              + TrestleServer.DEV_ACCOUNT_KEY
              + ";TableEndpoint="
              + server.endpoint("devstoreaccount1")
              + ";";

      Result result = run(List.of("node", "sample.mjs"), connectionString, 120);

      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(result.output().strip().lines().reduce((first, second) -> second).orElse(""))
          .isEqualTo(
              "{\"inserted\":11,\"matched\":10,\"pages\":3,\"staleRejected\":true,\"shipped\":true,\"quantity\":3}");
    }
  }

  private static void requireNode() throws InterruptedException {
    boolean present;
    try {
      present = run(List.of("node", "--version"), null, 30).exitCode() == 0;
    } catch (IOException e) {
      present = false;
    }
    if (!present) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(
            "Node.js is needed to run the JavaScript sample in CI; install node 20+ (see .ci/run).");
      }
      Assumptions.abort("Node.js not found; the JavaScript sample is not run (it is in CI).");
    }
  }

  private static void installSdk() throws IOException, InterruptedException {
    if (Files.isDirectory(SAMPLE_DIR.resolve("node_modules/@azure/data-tables"))) {
      return;
    }
    Result install = run(List.of("npm", "ci", "--no-audit", "--no-fund"), null, 300);
    if (install.exitCode() != 0) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail("npm ci failed in " + SAMPLE_DIR + ":\n" + install.output());
      }
      Assumptions.abort(
          "npm ci failed (offline?); the JavaScript sample is not run (it is in CI):\n"
              + install.output());
    }
  }

  private record Result(int exitCode, String output) {}

  private static Result run(List<String> command, String connectionString, int timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(SAMPLE_DIR.toFile()).redirectErrorStream(true);
    if (connectionString != null) {
      builder.environment().put("TRESTLE_CONNECTION_STRING", connectionString);
    }
    Path output = Files.createTempFile("js-sample", ".log");
    builder.redirectOutput(output.toFile());
    Process process = builder.start();
    try {
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(
            -1, "timed out after " + timeoutSeconds + " s:\n" + Files.readString(output));
      }
      return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
