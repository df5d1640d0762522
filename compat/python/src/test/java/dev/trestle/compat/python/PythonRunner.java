package dev.trestle.compat.python;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs Python with the Azure Tables SDK. The SDK comes from Debian's {@code python3-azure} package
 * for the system interpreter ({@code /usr/bin/python3}; {@code TRESTLE_PYTHON} names another).
 * Without it the Python runs are skipped on a developer's machine but fail in CI ({@code CI=true}),
 * where {@code .ci/run} installs it.
 */
public final class PythonRunner {
  /** What a run printed (standard output and error together) and its exit code. */
  public record Result(int exitCode, String output) {}

  private final Path directory;
  private final String python;

  public PythonRunner(Path directory) {
    this.directory = directory;
    String configured = System.getenv("TRESTLE_PYTHON");
    this.python =
        configured != null && !configured.isBlank()
            ? configured
            : Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
  }

  /** The azure-data-tables version, after checking that the SDK can be imported. */
  public String requireSdk() throws InterruptedException {
    Result probe;
    try {
      probe =
          run(
              List.of("-c", "import azure.data.tables as t, azure.core as c; print(t.__version__)"),
              Map.of(),
              60);
    } catch (IOException e) {
      probe = new Result(-1, e.toString());
    }
    if (probe.exitCode() != 0) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(
            "The Azure Tables SDK for Python is needed in CI (apt-get install python3-azure, see"
                + " .ci/run); "
                + python
                + " said: "
                + probe.output());
      }
      Assumptions.abort(
          "The Azure Tables SDK for Python is not installed for "
              + python
              + " (apt-get install python3-azure); the Python runs are skipped (they run in CI).");
    }
    return probe.output().strip();
  }

  public Result run(List<String> arguments, Map<String, String> environment, int timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(python);
    command.addAll(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().putAll(environment);
    // the Debian packages live in the system interpreter's own path; a user's PYTHONPATH could
    // shadow them
    builder.environment().remove("PYTHONPATH");
    Path output = Files.createTempFile("trestle-python", ".log");
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
