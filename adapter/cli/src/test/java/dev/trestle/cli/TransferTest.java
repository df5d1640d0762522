package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transfer engine end to end on H2 and PostgreSQL: every EDM type and the Timestamps through a
 * database copy and an account folder, verify's verdicts, and resume after a failure mid-way.
 */
@MultiShardWrites(
    "copies and imports into a database load rows of several partitions per transaction")
class TransferTest {
  @TempDir Path dir;

  static TableEntity everyType(int i) {
    return TableEntity.builder(String.format("p%04d", i / 40), String.format("r%05d", i))
        .put("S", "s" + i + " \uD83D\uDE00 '\"")
        .put("I32", i - 100)
        .put("I64", (1L << 60) + i)
        .put("D", i % 7 == 0 ? Double.NaN : i / 3.0)
        .put("B", i % 2 == 0)
        .put("T", Instant.parse("2024-01-02T03:04:05.1234567Z").plusSeconds(i))
        .put("G", new UUID(i, i * 31L))
        .put("Bin", new byte[] {(byte) i, 0, (byte) 255})
        .timestamp(Instant.parse("2021-06-07T08:09:10.1234567Z").plusMillis(i))
        .build();
  }

  static void fill(TableService service, String table, int count) {
    service.createTableIfNotExists(table);
    try (BulkWriter writer =
        service.bulkWriter(table, BulkWriteOptions.defaults().withKeepTimestamps(true))) {
      for (int i = 0; i < count; i++) {
        writer.add(everyType(i));
      }
    }
  }

  static List<TableEntity> all(TableService service, String table) {
    List<TableEntity> entities = new ArrayList<>();
    service.tableClient(table).listEntities(EntityQuery.all()).forEach(entities::add);
    return entities;
  }

  private static List<String> target(TestDatabase db, CliDatabases.Empty empty) {
    List<String> flags = new ArrayList<>(List.of("--to-db", empty.url()));
    if (db.username() != null) {
      flags.addAll(List.of("--to-db-user", db.username()));
    }
    if (db.password() != null) {
      flags.addAll(List.of("--to-db-password", db.password()));
    }
    return flags;
  }

  private static String[] args(List<String> first, List<String> a, List<String> b, String... rest) {
    List<String> all = new ArrayList<>(first);
    all.addAll(a);
    all.addAll(b);
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }

  @DatabaseTest
  void copyKeepsEveryTypeTimestampAndETagAndVerifySaysEqualThenNamesADifference(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService source = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      fill(source, "Typed", 250);
      fill(source, "Other", 3);
      Path checkpoint = dir.resolve("copy.checkpoint");
      CliRun copy =
          CliRun.run(
              args(
                  List.of("copy"),
                  CliDatabases.flags(db),
                  target(db, empty),
                  "--account",
                  account,
                  "--checkpoint",
                  checkpoint.toString(),
                  "--quiet",
                  "--verify"));
      assertThat(copy.exitCode()).as(copy.err()).isZero();
      assertThat(copy.err()).contains("Copied 253 entities in 2 table(s)");
      assertThat(copy.out()).contains("Typed: equal; source 250 entities");
      assertThat(checkpoint).doesNotExist();
      try (TableService copied =
          TableService.builder()
              .jdbcUrl(empty.url())
              .credentials(db.username(), db.password())
              .account(account)
              .build()) {
        assertThat(all(copied, "Typed")).containsExactlyElementsOf(all(source, "Typed"));
        copied.tableClient("Typed").upsertReplace(TableEntity.builder("p0001", "r00041").build());
      }
      CliRun verify =
          CliRun.run(
              args(
                  List.of("verify"),
                  CliDatabases.flags(db),
                  target(db, empty),
                  "--account",
                  account,
                  "--table",
                  "typed"));
      assertThat(verify.exitCode()).isEqualTo(ExitCode.DIFFERENT);
      assertThat(verify.out())
          .contains("Typed: 1 difference(s)")
          .contains("different: (PartitionKey='p0001', RowKey='r00041')");
    }
  }

  @DatabaseTest
  void anAccountGoesIntoAFolderWithAManifestAndBackWithTypesAndTimestamps(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    Path folder = dir.resolve("account");
    try (TableService source = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      fill(source, "Typed", 120);
      fill(source, "Small", 2);
      CliRun export =
          CliRun.run(
              CliDatabases.args(
                  List.of("export"),
                  CliDatabases.flags(db),
                  "--account",
                  account,
                  "--out-dir",
                  folder.toString(),
                  "--quiet"));
      assertThat(export.exitCode()).as(export.err()).isZero();
      assertThat(folder.resolve("Typed.ndjson")).exists();
      assertThat(Files.readString(folder.resolve("manifest.json")))
          .contains("\"name\" : \"Small\"")
          .contains("\"entities\" : 120");

      CliRun imported =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"),
                  empty.flags(),
                  "--account",
                  account,
                  "--in-dir",
                  folder.toString(),
                  "--quiet"));
      assertThat(imported.exitCode()).as(imported.err()).isZero();
      assertThat(imported.err()).contains("Imported 122 entities in 2 table(s)");
      try (TableService copied =
          TableService.builder()
              .jdbcUrl(empty.url())
              .credentials(db.username(), db.password())
              .account(account)
              .build()) {
        assertThat(all(copied, "Typed")).containsExactlyElementsOf(all(source, "Typed"));
        assertThat(all(copied, "Small")).containsExactlyElementsOf(all(source, "Small"));
      }

      // a table file cut at a line boundary is refused whole, not imported short with success
      List<String> typed = Files.readAllLines(folder.resolve("Typed.ndjson"));
      Files.write(folder.resolve("Typed.ndjson"), typed.subList(0, 100));
      try (CliDatabases.Empty other = CliDatabases.empty(db)) {
        CliRun cut =
            CliRun.run(
                CliDatabases.args(
                    List.of("import"),
                    other.flags(),
                    "--account",
                    account,
                    "--in-dir",
                    folder.toString(),
                    "--quiet"));
        assertThat(cut.exitCode()).as(cut.err()).isEqualTo(ExitCode.DATA);
        assertThat(cut.err())
            .contains("holds 100 entities where the manifest says 120")
            .contains("Nothing of the table was imported");
      }
    }
  }

  @DatabaseTest
  void anImportStoppedByABadLineResumesAfterItsFixWithNoGapAndNoDuplicate(TestDatabase db)
      throws Exception {
    Path file = dir.resolve("in.ndjson");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      lines.add(dev.trestle.json.EntityLines.write(everyType(i)));
    }
    String good = lines.get(2_345);
    lines.set(2_345, "{\"PartitionKey\":\"x\"");
    Files.write(file, lines);
    Path checkpoint = dir.resolve("import.checkpoint");
    try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
      CliRun first =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"),
                  empty.flags(),
                  "--table",
                  "Typed",
                  "--in",
                  file.toString(),
                  "--mode",
                  "insert",
                  "--checkpoint",
                  checkpoint.toString()));
      assertThat(first.exitCode()).isEqualTo(ExitCode.DATA);
      assertThat(first.err()).contains("Line 2346 of").contains("2345 entities before it");
      lines.set(2_345, good);
      Files.write(file, lines);
      CliRun resumed =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"),
                  empty.flags(),
                  "--table",
                  "Typed",
                  "--in",
                  file.toString(),
                  "--mode",
                  "insert",
                  "--checkpoint",
                  checkpoint.toString(),
                  "--resume"));
      assertThat(resumed.exitCode()).as(resumed.err()).isZero();
      assertThat(resumed.err()).contains("Imported 155 entities");
      try (TableService copied =
          TableService.builder()
              .jdbcUrl(empty.url())
              .credentials(db.username(), db.password())
              .build()) {
        List<TableEntity> read = all(copied, "Typed");
        assertThat(read).hasSize(2_500);
        assertThat(read.stream().map(TableEntity::rowKey).distinct()).hasSize(2_500);
        for (TableEntity entity : read) {
          int i = Integer.parseInt(entity.rowKey().substring(1));
          assertThat(entity.properties()).isEqualTo(everyType(i).properties());
          assertThat(entity.timestamp()).isEqualTo(everyType(i).timestamp());
        }
      }
    }
  }
}
