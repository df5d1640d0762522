package dev.trestle.compat.js;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs Node.js commands in the suite's directory. Without Node.js the suite is skipped on a
 * developer's machine but fails in CI ({@code CI=true}), where it must run; {@code npm ci} installs
 * the SDK when it is missing.
 */
final class NodeRunner {
  record Result(int exitCode, String output) {}

  private final Path directory;

  NodeRunner(Path directory) {
    this.directory = directory;
  }

  void requireNode() throws InterruptedException {
    boolean present;
    try {
      present = run(List.of("node", "--version"), Map.of(), 30).exitCode() == 0;
    } catch (IOException e) {
      present = false;
    }
    if (!present) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(
            "Node.js 20+ is needed to run the JavaScript compatibility suite in CI (see .ci/run).");
      }
      Assumptions.abort(
          "Node.js not found; the JavaScript compatibility suite is not run (it is in CI).");
    }
  }

  void installDependencies() throws IOException, InterruptedException {
    if (Files.isDirectory(directory.resolve("node_modules/@azure/data-tables"))) {
      return;
    }
    Result install = run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), 300);
    if (install.exitCode() != 0) {
      fail("npm ci failed in " + directory + ":\n" + install.output());
    }
  }

  Result run(List<String> command, Map<String, String> environment, int timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Path output = Files.createTempFile("trestle-node", ".log");
    builder.redirectOutput(output.toFile());
    Process process = builder.start();
    try {
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
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
