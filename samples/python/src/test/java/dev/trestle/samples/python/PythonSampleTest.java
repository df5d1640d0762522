package dev.trestle.samples.python;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code sample.py} with the system Python ({@code /usr/bin/python3}, or {@code
 * TRESTLE_PYTHON}) against a Trestle server on a free port. The SDK is Debian's {@code
 * python3-azure}; without it the test is skipped on a developer's machine but fails in CI ({@code
 * CI=true}), where {@code .ci/run} installs it.
 */
class PythonSampleTest {
  private static final Path SAMPLE_DIR = Path.of("").toAbsolutePath();

  @Test
  void sampleRunsUnchangedAgainstTrestle() throws Exception {
    requireSdk();
    try (TableService tables =
            TableService.builder()
                .jdbcUrl("jdbc:h2:mem:python-sample-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
                .build();
        TrestleServer server = TrestleServer.builder(tables).port(0).build().start()) {
      String connectionString =
          "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
              + TrestleServer.DEV_ACCOUNT_KEY
              + ";TableEndpoint="
              + server.endpoint("devstoreaccount1")
              + ";";

      Result result = run(List.of("sample.py"), connectionString, 120);

      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(result.output().strip().lines().reduce((first, second) -> second).orElse(""))
          .isEqualTo(
              "{\"inserted\":11,\"matched\":10,\"pages\":3,\"staleRejected\":true,"
                  + "\"shipped\":true,\"quantity\":3,\"totalMicros\":12000000000}");
    }
  }

  private static void requireSdk() throws InterruptedException {
    Result probe;
    try {
      probe = run(List.of("-c", "import azure.data.tables"), null, 60);
    } catch (IOException e) {
      probe = new Result(-1, e.toString());
    }
    if (probe.exitCode() != 0) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(
            "The Azure Tables SDK for Python is needed to run the Python sample in CI"
                + " (apt-get install python3-azure, see .ci/run): "
                + probe.output());
      }
      Assumptions.abort(
          "The Azure Tables SDK for Python is not installed (apt-get install python3-azure);"
              + " the Python sample is not run (it is in CI).");
    }
  }

  private static String python() {
    String configured = System.getenv("TRESTLE_PYTHON");
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
  }

  private record Result(int exitCode, String output) {}

  private static Result run(List<String> arguments, String connectionString, int timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(python());
    command.addAll(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(SAMPLE_DIR.toFile()).redirectErrorStream(true);
    builder.environment().remove("PYTHONPATH");
    if (connectionString != null) {
      builder.environment().put("TRESTLE_CONNECTION_STRING", connectionString);
    }
    Path output = Files.createTempFile("python-sample", ".log");
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
