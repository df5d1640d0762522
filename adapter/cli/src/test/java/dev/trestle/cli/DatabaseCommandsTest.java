package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

/** migrate, export, import and copy against real databases, on H2 and PostgreSQL. */
class DatabaseCommandsTest {
  @TempDir Path dir;

  @DatabaseTest
  void migrateAppliesTheSchemaOnceAndReportsTheVersion(TestDatabase db) throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
      CliRun status = CliRun.run(CliDatabases.args(List.of("migrate", "--status"), empty.flags()));
      assertThat(status.exitCode()).as(status.err()).isZero();
      assertThat(status.out()).startsWith("No Trestle schema in ");

      CliRun first = CliRun.run(CliDatabases.args(List.of("migrate"), empty.flags()));
      assertThat(first.exitCode()).as(first.err()).isZero();
      assertThat(first.out()).matches("Schema version \\d+ applied to .* \\(was empty\\)\\R");

      CliRun second = CliRun.run(CliDatabases.args(List.of("migrate"), empty.flags()));
      assertThat(second.out()).contains("is up to date");

      CliRun after = CliRun.run(CliDatabases.args(List.of("migrate", "--status"), empty.flags()));
      assertThat(after.out()).startsWith("Schema version ");
    }
  }

  @DatabaseTest
  void exportThenImportIntoAnotherDatabaseKeepsEveryEntityAndType(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    List<TableEntity> original = new ArrayList<>();
    try (TableService service = db.newService(account)) {
      service.createTable("Orders");
      var table = service.tableClient("Orders");
      for (int p = 0; p < 3; p++) {
        List<TableOperation> batch = new ArrayList<>();
        for (int r = 0; r < 70; r++) {
          batch.add(
              TableOperation.insert(entity("p" + p, String.format("r%03d", r), p * 1000 + r)));
        }
        table.submitTransaction(batch);
      }
      original.addAll(readAll(service, "Orders"));
    }
    Path file = dir.resolve("orders.ndjson");

    CliRun export =
        CliRun.run(
            CliDatabases.args(
                List.of("export"),
                CliDatabases.flags(db),
                "--account",
                account,
                "--table",
                "orders",
                "--out",
                file.toString()));
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(export.err()).contains("Exported 210 entities");
    assertThat(Files.readAllLines(file)).hasSize(210);

    try (CliDatabases.Empty target = CliDatabases.empty(db)) {
      CliRun imported =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"), target.flags(), "--table", "Copy", "--in", file.toString()));
      assertThat(imported.exitCode()).as(imported.err()).isZero();
      assertThat(imported.err()).contains("Imported 210 entities");

      try (TableService copy =
          TableService.builder()
              .jdbcUrl(target.url())
              .credentials(db.username(), db.password())
              .build()) {
        assertThat(withoutVersions(readAll(copy, "Copy"))).isEqualTo(withoutVersions(original));
      }
    }
  }

  /**
   * An entity the database refuses (an invalid property name) stops the import as a bad line does:
   * saying what was committed before it and that --resume continues after it once fixed.
   */
  @DatabaseTest
  void anEntityTheDatabaseRefusesSaysWhatIsCommittedAndHowToResume(TestDatabase db)
      throws Exception {
    Path file = dir.resolve("refused.ndjson");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      lines.add("{\"PartitionKey\":\"p\",\"RowKey\":\"" + String.format("%05d", i) + "\",\"N\":1}");
    }
    lines.set(2_200, "{\"PartitionKey\":\"p\",\"RowKey\":\"02200\",\"bad name\":1}");
    Files.write(file, lines);
    try (CliDatabases.Empty target = CliDatabases.empty(db)) {
      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"),
                  target.flags(),
                  "--table",
                  "refused",
                  "--in",
                  file.toString()));
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATA);
      assertThat(run.err())
          .contains("RowKey='02200'")
          .contains("PropertyNameInvalid")
          .containsPattern("\\(\\d+ entities before it are committed; once it is fixed, --resume")
          .doesNotContain("\n\tat ");
    }
  }

  /** A command that only reads names an older schema and the way out, not a missing relation. */
  @org.junit.jupiter.api.Test
  void readingADatabaseOfAnOlderSchemaSaysToMigrateIt() {
    String url = "jdbc:h2:mem:older-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    org.flywaydb.core.Flyway.configure(getClass().getClassLoader())
        .dataSource(url, "", "")
        .locations("classpath:dev/trestle/migrations/h2")
        .table(dev.trestle.store.SchemaMigrator.HISTORY_TABLE)
        .target("1")
        .load()
        .migrate();
    CliRun export = CliRun.run("export", "--db", url, "--table", "Any");
    assertThat(export.exitCode()).as(export.err()).isEqualTo(ExitCode.DATABASE);
    assertThat(export.err())
        .contains("is at version 1, older than this Trestle's: run `trestle migrate`");
    assertThat(CliRun.run("migrate", "--db", url).exitCode()).isZero();
    assertThat(CliRun.run("export", "--db", url, "--table", "Any").exitCode())
        .isEqualTo(ExitCode.TABLE_NOT_FOUND);
  }

  /**
   * A database a newer Trestle has migrated is refused (serve takes migrate's path), since this one
   * would write without what the newer schema keeps in step, or put older functions back over its
   * own.
   */
  @org.junit.jupiter.api.Test
  void aDatabaseANewerTrestleMigratedIsRefusedByCommandsThatWriteAndThatRead() {
    String url = "jdbc:h2:mem:newer-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    assertThat(CliRun.run("migrate", "--db", url).exitCode()).isZero();
    org.flywaydb.core.Flyway.configure(getClass().getClassLoader())
        .dataSource(url, "", "")
        .locations("classpath:dev/trestle/migrations/h2", "classpath:dev/trestle/cli/newer")
        .table(dev.trestle.store.SchemaMigrator.HISTORY_TABLE)
        .ignoreMigrationPatterns("*:missing") // version 8 is a Java migration of core's
        .load()
        .migrate();
    for (List<String> command :
        List.of(
            List.of("migrate", "--db", url),
            List.of("migrate", "--status", "--db", url),
            List.of("export", "--db", url, "--table", "Any"))) {
      CliRun run = CliRun.run(command.toArray(String[]::new));
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATABASE);
      assertThat(run.err())
          .as(command.get(0))
          .contains("schema is at version 99, newer than this Trestle's")
          .doesNotContain("\n\tat ");
    }
  }

  @DatabaseTest
  void importStopsAtABadLineNamingItAndKeepsWhatWasWritten(TestDatabase db) throws Exception {
    Path file = dir.resolve("bad.ndjson");
    Files.writeString(
        file,
        """
        {"PartitionKey":"a","RowKey":"1","N":1}

        {"PartitionKey":"a","RowKey":"2","N":"x","N@odata.type":"Edm.Int64"}
        """);
    try (CliDatabases.Empty target = CliDatabases.empty(db)) {
      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"), target.flags(), "--table", "bad", "--in", file.toString()));
      assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
      assertThat(run.err().strip())
          .isEqualTo(
              "trestle: Line 3 of "
                  + file
                  + ": property 'N' is not a valid Edm.Int64 (1 entities before it are committed;"
                  + " once it is fixed, --resume continues after them).");
    }
  }

  /**
   * A line that is not UTF-8 (a Latin-1 é) is named, not stored as U+FFFD; a byte order mark and a
   * Timestamp written with spaces (any JSON tool's output) are read as they mean.
   */
  @DatabaseTest
  void importNamesALineThatIsNotUtf8AndReadsABomAndASpacedTimestamp(TestDatabase db)
      throws Exception {
    Path file = dir.resolve("latin1.ndjson");
    byte[] good =
        "\uFEFF{\"PartitionKey\": \"a\", \"RowKey\": \"1\", \"Timestamp\": \"2020-01-01T00:00:00.1Z\"}\r\n"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] bad =
        "{\"PartitionKey\":\"a\",\"RowKey\":\"2\",\"S\":\"caf\u00e9\"}\n"
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    Files.write(file, good);
    Files.write(file, bad, java.nio.file.StandardOpenOption.APPEND);
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("import"),
                  CliDatabases.flags(db),
                  "--account",
                  account,
                  "--table",
                  "latin",
                  "--in",
                  file.toString()));
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATA);
      assertThat(run.err()).contains("Line 2 of " + file + ": not UTF-8 text");
      List<TableEntity> imported = readAll(service, "latin");
      assertThat(imported).hasSize(1);
      assertThat(imported.get(0).timestamp()).isEqualTo(Instant.parse("2020-01-01T00:00:00.1Z"));
    }
  }

  @DatabaseTest
  void copyMovesEveryTableToAnotherDatabase(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("First");
      service.createTable("Second");
      service.tableClient("First").insert(entity("a", "1", 1));
      service.tableClient("Second").insert(entity("b", "2", 2));
      service.tableClient("Second").insert(entity("c", "3", 3));
    }
    try (CliDatabases.Empty target = CliDatabases.empty(db)) {
      List<String> to = new ArrayList<>(List.of("--to-db", target.url()));
      if (db.username() != null) {
        to.addAll(List.of("--to-db-user", db.username(), "--to-db-password", db.password()));
      }
      to.addAll(List.of("--account", account));
      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("copy"), CliDatabases.flags(db), to.toArray(String[]::new)));
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.err()).contains("Copied 3 entities in 2 table(s)");
      try (TableService copy =
          TableService.builder()
              .jdbcUrl(target.url())
              .account(account)
              .credentials(db.username(), db.password())
              .build()) {
        assertThat(copy.getTable("first"))
            .hasValueSatisfying(t -> assertThat(t.name()).isEqualTo("First"));
        assertThat(readAll(copy, "Second"))
            .extracting(TableEntity::rowKey)
            .containsExactly("2", "3");
      }
    }
  }

  /**
   * The scalar store is chosen by the command that creates a schema: migrate --scalar-store, or a
   * copy's --to-scalar-store, whose target then holds a scalar row per entity; asking for it on a
   * schema made without it fails, saying so.
   */
  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void theScalarStoreIsChosenByTheCommandThatCreatesTheSchema(TestDatabase db) throws Exception {
    try (CliDatabases.Empty with = CliDatabases.empty(db);
        CliDatabases.Empty without = CliDatabases.empty(db)) {
      CliRun created =
          CliRun.run(CliDatabases.args(List.of("migrate"), with.flags(), "--scalar-store"));
      assertThat(created.exitCode()).as(created.err()).isZero();
      assertThat(created.out()).contains("(was empty), with the scalar store");
      assertThat(scalarRows(db, with.schema())).isZero();
      CliRun status = CliRun.run(CliDatabases.args(List.of("migrate", "--status"), with.flags()));
      assertThat(status.out()).contains(", with the scalar store");

      assertThat(CliRun.run(CliDatabases.args(List.of("migrate"), without.flags())).exitCode())
          .isZero();
      CliRun refused =
          CliRun.run(CliDatabases.args(List.of("migrate"), without.flags(), "--scalar-store"));
      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.err()).contains("created without the scalar store");
      assertThat(scalarRows(db, without.schema())).isNegative();
    }
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account)) {
      service.createTable("Kept");
      service.tableClient("Kept").insert(entity("a", "1", 1));
      service.tableClient("Kept").insert(entity("a", "2", 2));
    }
    try (CliDatabases.Empty target = CliDatabases.empty(db)) {
      List<String> to =
          new ArrayList<>(
              List.of("--to-db", target.url(), "--to-scalar-store", "--account", account));
      if (db.username() != null) {
        to.addAll(List.of("--to-db-user", db.username(), "--to-db-password", db.password()));
      }
      CliRun run =
          CliRun.run(
              CliDatabases.args(
                  List.of("copy"), CliDatabases.flags(db), to.toArray(String[]::new)));
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(scalarRows(db, target.schema())).isEqualTo(2);
    }
  }

  /**
   * The scalar rows in a PostgreSQL schema that agree with their entities (document and signature),
   * or -1 when it has no scalar store.
   */
  private static long scalarRows(TestDatabase db, String schema) throws java.sql.SQLException {
    if (db.queryLong(
            "select count(*) from pg_tables where schemaname = ? and tablename = ?",
            schema,
            "trestle_entity_scalar")
        == 0) {
      return -1;
    }
    return db.queryLong(
        "select count(*) from "
            + schema
            + ".trestle_entity_scalar s join "
            + schema
            + ".trestle_entity e using (table_id, partition_key, row_key)"
            + " where s.scalars = "
            + schema
            + ".trestle_scalars(e.properties) and s.signature = "
            + schema
            + ".trestle_string_signature(e.properties) and s.signature <> 0");
  }

  @DatabaseTest
  void exportOfAMissingTableHasItsOwnExitCode(TestDatabase db) {
    CliRun run =
        CliRun.run(
            CliDatabases.args(
                List.of("export"),
                CliDatabases.flags(db),
                "--account",
                TestDatabase.newAccount(),
                "--table",
                "nothere"));
    assertThat(run.exitCode()).isEqualTo(ExitCode.TABLE_NOT_FOUND);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("Table 'nothere' does not exist");
  }

  @DatabaseTest
  void exportNeverMigratesAndNamesADatabaseWithoutTrestleTables(TestDatabase db) throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
      CliRun run =
          CliRun.run(CliDatabases.args(List.of("export"), empty.flags(), "--table", "orders"));
      assertThat(run.exitCode()).isEqualTo(ExitCode.DATABASE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .contains("There are no Trestle tables in");
      assertThat(CliRun.run(CliDatabases.args(List.of("migrate", "--status"), empty.flags())).out())
          .startsWith("No Trestle schema");
    }
  }

  private static TableEntity entity(String partitionKey, String rowKey, int n) {
    return TableEntity.builder(partitionKey, rowKey)
        .put("Text", "entity \u00e9 " + n)
        .put("Int32", n)
        .put("Int64", Long.MAX_VALUE - n)
        .put("Double", n % 2 == 0 ? -0.0 : Double.NaN)
        .put("Flag", n % 3 == 0)
        .put("When", Instant.ofEpochSecond(1_700_000_000L + n, 1234500))
        .put("Id", new UUID(n, -n))
        .put("Bytes", new byte[] {(byte) n, 0, -1})
        .build();
  }

  private static List<TableEntity> readAll(TableService service, String table) {
    List<TableEntity> all = new ArrayList<>();
    EntityQuery query = EntityQuery.all();
    while (true) {
      EntityPage page = service.tableClient(table).query(query);
      all.addAll(page.entities());
      if (page.next().isEmpty()) {
        return all;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  private static List<Map.Entry<String, Object>> withoutVersions(List<TableEntity> entities) {
    return entities.stream()
        .map(e -> Map.entry(e.partitionKey() + "|" + e.rowKey(), (Object) e.properties()))
        .toList();
  }
}
