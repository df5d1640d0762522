package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees for the common mistakes: one line on stderr, no stack trace, a distinct exit
 * code.
 */
class ErrorReportingProcessTest {
  @TempDir Path dir;

  @Test
  void badFlag() throws Exception {
    TrestleProcess.Outcome outcome = TrestleProcess.run(dir, "serve", "--portt", "1");
    assertOneLineError(outcome, ExitCode.USAGE, "Unknown option");
  }

  @Test
  void badJdbcUrl() throws Exception {
    TrestleProcess.Outcome outcome =
        TrestleProcess.run(dir, "serve", "--db", "jdbc:oracle:thin:@x:1521:y");
    assertOneLineError(outcome, ExitCode.USAGE, "--db must be a jdbc:postgresql: or jdbc:h2: URL");
  }

  @Test
  void unreachableDatabase() throws Exception {
    TrestleProcess.Outcome outcome =
        TrestleProcess.run(
            dir,
            "serve",
            "--port",
            "0",
            "--db-wait",
            "0",
            "--db",
            "jdbc:postgresql://127.0.0.1:1/trestle");
    assertOneLineError(outcome, ExitCode.DATABASE, "Cannot reach the database");
  }

  @Test
  void busyPort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      TrestleProcess.Outcome outcome =
          TrestleProcess.run(dir, "serve", "--port", Integer.toString(taken.getLocalPort()));
      assertOneLineError(outcome, ExitCode.PORT, "already in use");
    }
  }

  @Test
  void unreadableCertificate() throws Exception {
    java.nio.file.Path key = java.nio.file.Files.writeString(dir.resolve("key.pem"), "not a key");
    TrestleProcess.Outcome outcome =
        TrestleProcess.run(
            dir,
            "serve",
            "--port",
            "0",
            "--cert",
            dir.resolve("cert.pem").toString(),
            "--key",
            key.toString());
    assertOneLineError(
        outcome, ExitCode.USAGE, "--cert: '" + dir.resolve("cert.pem") + "' does not exist.");
  }

  private static void assertOneLineError(
      TrestleProcess.Outcome outcome, int exitCode, String message) {
    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(exitCode);
    assertThat(outcome.err()).doesNotContain("\tat ").doesNotContain("Exception");
    String[] errorLines =
        outcome.err().lines().filter(line -> line.startsWith("trestle: ")).toArray(String[]::new);
    assertThat(errorLines).singleElement().asString().contains(message);
    assertThat(outcome.err().lines().filter(line -> line.contains("ERROR"))).isEmpty();
  }
}
