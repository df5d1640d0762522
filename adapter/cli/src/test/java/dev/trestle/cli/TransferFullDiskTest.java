package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.trestle.json.EntityLines;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transfer whose target disk fills up mid-way (a small tmpfs, so the write fails with ENOSPC): it
 * ends with one line and exit 5, keeps what it committed, and once the volume is grown the same
 * command with --resume completes it, verify finding no gap and no duplicate. Needs root to mount a
 * tmpfs; where mounting is refused the test is skipped.
 */
class TransferFullDiskTest {
  private static final int ENTITIES = 30_000;

  @TempDir Path dir;

  private Path folder() throws IOException {
    Path folder = dir.resolve("account");
    Files.createDirectories(folder);
    try (BufferedWriter out = Files.newBufferedWriter(folder.resolve("Typed.ndjson"))) {
      for (int i = 0; i < ENTITIES; i++) {
        out.write(EntityLines.write(TransferTest.everyType(i)));
        out.write('\n');
      }
    }
    Files.writeString(
        folder.resolve("manifest.json"),
        "{\"format\":\"trestle-ndjson\",\"version\":1,\"tables\":[{\"name\":\"Typed\","
            + "\"file\":\"Typed.ndjson\",\"entities\":"
            + ENTITIES
            + "}]}");
    return folder;
  }

  /** A tmpfs of {@code megabytes} at {@code at}, unmounted on close. */
  private record SmallDisk(Path at) implements AutoCloseable {
    static SmallDisk mount(Path at, long megabytes) throws Exception {
      Files.createDirectories(at);
      assumeTrue(
          System.getProperty("os.name").startsWith("Linux")
              && run(
                      "mount",
                      "-t",
                      "tmpfs",
                      "-o",
                      "size=" + megabytes + "m",
                      "tmpfs",
                      at.toString())
                  == 0,
          "mounting a tmpfs needs Linux and root");
      return new SmallDisk(at);
    }

    void grow(long megabytes) throws Exception {
      assertThat(run("mount", "-o", "remount,size=" + megabytes + "m", at.toString())).isZero();
    }

    @Override
    public void close() throws Exception {
      assertThat(run("umount", at.toString())).isZero();
    }

    static int run(String... command) throws Exception {
      Process process;
      try {
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
      } catch (IOException e) {
        return -1; // no mount command
      }
      process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      return process.exitValue();
    }
  }

  private static List<String> database(String prefix, TestDatabase db, String url) {
    List<String> flags = new ArrayList<>(List.of("--" + prefix + "db", url));
    if (db.username() != null) {
      flags.addAll(List.of("--" + prefix + "db-user", db.username()));
    }
    if (db.password() != null) {
      flags.addAll(List.of("--" + prefix + "db-password", db.password()));
    }
    return flags;
  }

  /**
   * Runs {@code command} as its own process onto the small disk, which it fills: one line, exit 5,
   * no stack trace.
   */
  private TrestleProcess.Outcome fill(List<String> command) throws Exception {
    TrestleProcess.Outcome full = TrestleProcess.run(dir, command.toArray(String[]::new));
    assertThat(full.exitCode()).as(full.err()).isEqualTo(ExitCode.DATA);
    assertThat(full.err().strip().lines()).as(full.err()).hasSize(1);
    assertThat(full.err())
        .startsWith("trestle: No space left on device while writing to ")
        .doesNotContain("unexpected error")
        .doesNotContain("Exception");
    return full;
  }

  /**
   * Grows the disk and runs {@code command} again (with --resume when the failed run said so, as it
   * must once something was committed), then checks with {@code verify} that source and target are
   * equal.
   */
  private void growAndResume(
      SmallDisk disk, TrestleProcess.Outcome full, List<String> command, List<String> verify)
      throws Exception {
    boolean committed = full.err().contains("--resume");
    disk.grow(256);
    List<String> again = new ArrayList<>(command);
    if (committed) {
      again.add("--resume");
    } else {
      assertThat(full.err()).contains("nothing was committed");
    }
    CliRun resumed = CliRun.run(again.toArray(String[]::new));
    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    CliRun verified = CliRun.run(verify.toArray(String[]::new));
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out())
        .contains("Typed: equal; source " + ENTITIES + " entities")
        .contains("target " + ENTITIES + " entities");
  }

  /**
   * An import into an H2 file on a disk that fills after some commits: H2's store survives the
   * failed write (what was committed reads back), and the resume completes it.
   */
  @DatabaseTest(TestDatabase.Kind.H2)
  void anImportIntoAnH2FileOnAFullDiskResumesWithNoGapAndNoDuplicateOnH2(TestDatabase db)
      throws Exception {
    Path folder = folder();
    try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 6)) {
      String url = "jdbc:h2:file:" + disk.at().resolve("target");
      List<String> command =
          new ArrayList<>(
              List.of(
                  "import", "--table", "Typed", "--in", folder.resolve("Typed.ndjson").toString()));
      command.addAll(database("", db, url));
      command.addAll(
          List.of("--checkpoint", dir.resolve("import.checkpoint").toString(), "--quiet"));
      List<String> verify =
          new ArrayList<>(List.of("verify", "--from-dir", folder.toString(), "--timestamps"));
      verify.addAll(database("to-", db, url));
      TrestleProcess.Outcome full = fill(command);
      assertThat(full.err()).as("the disk filled after a commit").contains("--resume");
      growAndResume(disk, full, command, verify);
    }
  }

  /**
   * A copy of a database into an account folder (NDJSON and manifest) on a disk that fills,
   * checkpoint included: the folder has no manifest until the copy ends, and the resume cuts the
   * file back to its last committed line and completes it.
   */
  @DatabaseTest
  void aCopyIntoAFolderOnAFullDiskResumesWithNoGapAndNoDuplicate(TestDatabase db) throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
      String url =
          db.kind() == TestDatabase.Kind.H2
              ? "jdbc:h2:file:" + dir.resolve("source").toAbsolutePath()
              : empty.url();
      List<String> fill = new ArrayList<>(List.of("copy", "--from-dir", folder().toString()));
      fill.addAll(database("to-", db, url));
      fill.add("--quiet");
      CliRun filled = CliRun.run(fill.toArray(String[]::new));
      assertThat(filled.exitCode()).as(filled.err()).isZero();
      try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 4)) {
        Path out = disk.at().resolve("export");
        List<String> command = new ArrayList<>(List.of("copy"));
        command.addAll(database("", db, url));
        command.addAll(
            List.of(
                "--db-wait",
                "0",
                "--to-dir",
                out.toString(),
                "--checkpoint",
                disk.at().resolve("copy.checkpoint").toString(),
                "--quiet"));
        List<String> verify = new ArrayList<>(List.of("verify"));
        verify.addAll(database("", db, url));
        verify.addAll(List.of("--to-dir", out.toString(), "--timestamps"));
        TrestleProcess.Outcome full = fill(command);
        // a partial folder is told from a finished one by its missing manifest
        assertThat(out.resolve("manifest.json")).as(full.err()).doesNotExist();
        assertThat(full.err())
            .contains(out.resolve("Typed.ndjson").toString())
            .contains("--resume");
        growAndResume(disk, full, command, verify);
      }
    }
  }

  /**
   * An import into PostgreSQL whose tables live in a tablespace on a small disk: PostgreSQL refuses
   * the transaction that cannot extend its file (SQLSTATE 53100), keeps the ones before, and the
   * resume completes it. Needs the server on this machine and its OS user {@code postgres}.
   */
  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void anImportIntoAFullTablespaceResumesWithNoGapAndNoDuplicateOnPostgresql(TestDatabase db)
      throws Exception {
    Path folder = folder();
    String tablespace = "trestle_full_" + ProcessHandle.current().pid();
    // the server's user must reach the mount point: not below the test's private temporary folder
    Path at = Path.of(System.getProperty("java.io.tmpdir"), tablespace);
    try (SmallDisk disk = SmallDisk.mount(at, 6)) {
      assumeTrue(
          SmallDisk.run("chown", "postgres", at.toString()) == 0, "no OS user postgres to own it");
      try (java.sql.Connection connection = db.dataSource().getConnection();
          java.sql.Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLESPACE " + tablespace + " LOCATION '" + at + "'");
      } catch (java.sql.SQLException e) {
        assumeTrue(false, "the server cannot have a tablespace here: " + e.getMessage());
      }
      try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
        String url = empty.url() + "&options=-c%20default_tablespace%3D" + tablespace;
        List<String> command =
            new ArrayList<>(
                List.of(
                    "import",
                    "--table",
                    "Typed",
                    "--in",
                    folder.resolve("Typed.ndjson").toString()));
        command.addAll(database("", db, url));
        command.addAll(
            List.of("--checkpoint", dir.resolve("import.checkpoint").toString(), "--quiet"));
        List<String> verify =
            new ArrayList<>(List.of("verify", "--from-dir", folder.toString(), "--timestamps"));
        verify.addAll(database("to-", db, url));
        TrestleProcess.Outcome full = fill(command);
        assertThat(full.err()).as("the disk filled after a commit").contains("--resume");
        growAndResume(disk, full, command, verify);
      } finally {
        try (java.sql.Connection connection = db.dataSource().getConnection();
            java.sql.Statement statement = connection.createStatement()) {
          statement.execute("DROP TABLESPACE IF EXISTS " + tablespace);
        }
      }
    }
  }
}
