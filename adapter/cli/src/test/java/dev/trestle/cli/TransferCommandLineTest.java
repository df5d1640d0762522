package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Command-line details of the transfer commands that need no database. */
class TransferCommandLineTest {

  @Test
  void versionAnswersHelp() {
    CliRun run = CliRun.run("version", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Usage: trestle version");
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
