package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.json.EntityLines;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy run as its own process, stopped at a random point after its first commit (SIGTERM: a clean
 * stop with exit 8; SIGKILL: no warning at all), then resumed with --resume, then checked with
 * verify: no gap, no duplicate, every value exact.
 */
class TransferStopTest {
  private static final int ENTITIES = 30_000;

  @TempDir Path dir;

  private Path folder() throws Exception {
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

  private List<String> target(TestDatabase db, String url) {
    List<String> flags = new ArrayList<>(List.of("--to-db", url));
    if (db.username() != null) {
      flags.addAll(List.of("--to-db-user", db.username()));
    }
    if (db.password() != null) {
      flags.addAll(List.of("--to-db-password", db.password()));
    }
    return flags;
  }

  private void stopResumeAndVerify(TestDatabase db, String url, boolean kill) throws Exception {
    Path folder = folder();
    Path checkpoint = dir.resolve("copy.checkpoint");
    List<String> copy = new ArrayList<>(List.of("copy", "--from-dir", folder.toString()));
    copy.addAll(target(db, url));
    copy.addAll(List.of("--checkpoint", checkpoint.toString(), "--quiet"));
    Process process =
        TrestleProcess.builder(dir, java.util.Map.of(), copy.toArray(String[]::new))
            .redirectOutput(dir.resolve("out.txt").toFile())
            .redirectError(dir.resolve("err.txt").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.exists(checkpoint) && process.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    Thread.sleep(ThreadLocalRandom.current().nextInt(0, 400));
    if (kill) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String err = Files.readString(dir.resolve("err.txt"));
    boolean finishedFirst = process.exitValue() == 0;
    if (!kill && !finishedFirst) {
      assertThat(process.exitValue()).as(err).isEqualTo(ExitCode.STOPPED);
      assertThat(err).contains("Stopped on request after").contains("--resume");
    }
    if (!finishedFirst) {
      List<String> resume = new ArrayList<>(copy);
      resume.add("--resume");
      CliRun resumed = CliRun.run(resume.toArray(String[]::new));
      assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    }
    List<String> verify = new ArrayList<>(List.of("verify", "--from-dir", folder.toString()));
    verify.addAll(target(db, url));
    verify.add("--timestamps");
    CliRun verified = CliRun.run(verify.toArray(String[]::new));
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out())
        .contains("Typed: equal; source " + ENTITIES + " entities")
        .contains("target " + ENTITIES + " entities");
  }

  @DatabaseTest
  void aCopyStoppedBySigtermResumesWithNoGapAndNoDuplicate(TestDatabase db) throws Exception {
    if (db.kind() == TestDatabase.Kind.H2) {
      stopResumeAndVerify(db, "jdbc:h2:file:" + dir.resolve("target").toAbsolutePath(), false);
    } else {
      try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
        stopResumeAndVerify(db, empty.url(), false);
      }
    }
  }

  /** H2 may lose its last commits to SIGKILL (it writes them behind), so PostgreSQL only. */
  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aCopyKilledAtARandomPointResumesWithNoGapAndNoDuplicateOnPostgresql(TestDatabase db)
      throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
      stopResumeAndVerify(db, empty.url(), true);
    }
  }
}
