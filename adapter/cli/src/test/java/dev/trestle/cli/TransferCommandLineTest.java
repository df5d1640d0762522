package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command-line details of the transfer commands that need no database. */
class TransferCommandLineTest {

  @Test
  void versionAnswersHelp() {
    CliRun run = CliRun.run("version", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Usage: trestle version");
  }

  /** Issue 15 saw "Cannot reach http://...: null" here: the message names the failure. */
  @Test
  void anUnreachableEndpointIsOneLineNamingItWithTheUnreachableExitCode(@TempDir Path dir)
      throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String endpoint = "http://127.0.0.1:" + closedPort + "/devstoreaccount1";
    CliRun run =
        CliRun.run(
            "copy",
            "--from-endpoint",
            endpoint,
            "--from-key",
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
            "--to-dir",
            dir.resolve("out").toString(),
            "--quiet");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATABASE);
    assertThat(run.err().strip().lines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("Cannot reach " + endpoint)
        .contains("ConnectException")
        .doesNotContain("null");
  }

  @Test
  void copyWantsExactlyOneTarget() {
    CliRun run = CliRun.run("copy", "--from-dir", "x", "--to-dir", "y", "--to-db", "jdbc:h2:mem:x");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("Give exactly one target");
  }

  @Test
  void importFromAMissingFolderSaysWhichManifestIsMissing() {
    CliRun run =
        CliRun.run("import", "--in-dir", "/nonexistent-trestle-dir", "--db", "jdbc:h2:mem:x");
    assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(run.err()).contains("/nonexistent-trestle-dir/manifest.json: no such file");
  }

  @Test
  void importFromAFolderGivenAsAFileSaysItCannotReadIt(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    CliRun run =
        CliRun.run(
            "import", "--table", "Orders", "--in", dir.toString(), "--db", "jdbc:h2:mem:folder");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATA);
    assertThat(run.errLines()).singleElement().asString().contains("Cannot read " + dir);
  }

  @Test
  void resumeWithoutACheckpointSaysWhereItLooked() {
    CliRun run =
        CliRun.run(
            "import",
            "--table",
            "Orders",
            "--in",
            "/nonexistent-trestle.ndjson",
            "--db",
            "jdbc:h2:mem:resume-" + System.nanoTime(),
            "--resume",
            "--checkpoint",
            "/nonexistent-trestle.checkpoint");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("--resume: no checkpoint at /nonexistent-trestle.checkpoint");
  }
}
