package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every EDM type through each format, on H2 and PostgreSQL, asserting exactly what each format
 * cannot carry (README "Migrating data"): NDJSON, CSV and a database copy keep everything; a SQL
 * table splits a property of several types into a column per type, PostgreSQL keeps DateTimes
 * (Timestamp included) to the microsecond, the seventh digit dropped (so the last DateTime stays
 * one), and H2 turns -0.0 into 0.0.
 */
@MultiShardWrites("imports load rows of several partitions per transaction")
class SqlAndCsvTransferTest {
  private static final String SMILE = "\uD83D\uDE00";
  @TempDir Path dir;

  static List<TableEntity> samples() {
    List<TableEntity> entities = new ArrayList<>();
    Instant stamp = Instant.parse("2021-06-07T08:09:10.1234567Z");
    double[] doubles = {
      -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0 / 3, 0.1
    };
    for (int i = 0; i < doubles.length; i++) {
      TableEntity.Builder entity =
          TableEntity.builder("p" + SMILE + (i % 2), "r" + i + " \uD83C\uDF89 ,\"'")
              .put("S", "text " + SMILE + " \"quoted\", comma\r\nnew line " + i)
              .put("Empty", "")
              .put("I32", i == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE - i)
              .put("I64", (1L << 53) + 1 + i)
              .put("D", doubles[i])
              .put("B", i % 2 == 0)
              .put("T", Instant.parse("2024-01-02T03:04:05.1234567Z").plusSeconds(i))
              .put("G", new UUID(0x0123456789abcdefL + i, -i))
              .put("Bin", i == 1 ? new byte[0] : new byte[] {(byte) i, 0, (byte) 255, 10, 44})
              .timestamp(stamp.plusMillis(i));
      if (i == 2) {
        entity.put("Mixed", 42);
      } else if (i == 3) {
        entity.put("Mixed", "forty-two");
      }
      if (i == 4) {
        entity.remove("S").remove("G");
      }
      if (i == 5) {
        entity.put("Last", Instant.parse("9999-12-31T23:59:59.9999999Z"));
      }
      entities.add(entity.build());
    }
    entities.add(TableEntity.builder("", "only keys").timestamp(stamp).build());
    return entities;
  }

  private static void fill(TableService service, String table, List<TableEntity> entities) {
    service.createTableIfNotExists(table);
    try (BulkWriter writer =
        service.bulkWriter(table, BulkWriteOptions.defaults().withKeepTimestamps(true))) {
      entities.forEach(writer::add);
    }
  }

  private static CliRun cli(TestDatabase db, String account, String... rest) {
    List<String> first = new ArrayList<>();
    first.add(rest[0]);
    CliRun run =
        CliRun.run(
            CliDatabases.args(
                first,
                CliDatabases.flags(db),
                concat(List.of(rest).subList(1, rest.length), "--account", account, "--quiet")));
    assertThat(run.exitCode()).as(run.err()).isZero();
    return run;
  }

  private static String[] concat(List<String> a, String... b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(List.of(b));
    return all.toArray(String[]::new);
  }

  /** A database of the test's kind for the relational side: its URL, user and password. */
  private static List<String> sqlFlags(TestDatabase db, String url) {
    List<String> flags = new ArrayList<>(List.of(url));
    if (db.username() != null) {
      flags.addAll(List.of("--sql-user", db.username()));
    }
    if (db.password() != null) {
      flags.addAll(List.of("--sql-password", db.password()));
    }
    return flags;
  }

  private static String sqlUrl(TestDatabase db, CliDatabases.Empty empty) {
    return db.kind() == TestDatabase.Kind.H2
        ? "jdbc:h2:mem:sql-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"
        : empty.url();
  }

  /**
   * A string PostgreSQL's text cannot hold (U+0000) stops the export with exit 5 and one short line
   * naming the entity and property, not the driver's statement with every value bound; nothing of
   * the table is left behind.
   */
  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void aNulInAStringStopsTheExportToPostgresqlNamingTheProperty(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      fill(
          service,
          "WithNul",
          List.of(
              TableEntity.builder("p", "a").put("Big", "x".repeat(30_000)).build(),
              TableEntity.builder("p", "b").put("Nul", "a\u0000b").build()));
      List<String> export = new ArrayList<>(CliDatabases.flags(db));
      export.addAll(0, List.of("export"));
      export.addAll(List.of("--account", account, "--quiet", "--table", "WithNul", "--to-sql"));
      export.addAll(sqlFlags(db, empty.url()));
      CliRun run = CliRun.run(export.toArray(String[]::new));
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATA);
      assertThat(run.err())
          .contains("entity (PartitionKey='p', RowKey='b') property 'Nul' holds U+0000")
          .hasSizeLessThan(1_000);
      try (Connection connection =
              DriverManager.getConnection(empty.url(), db.username(), db.password());
          Statement statement = connection.createStatement();
          java.sql.ResultSet tables =
              statement.executeQuery(
                  "select count(*) from pg_tables where tablename = 'WithNul'")) {
        tables.next();
        assertThat(tables.getInt(1)).isZero();
      }
    }
  }

  private static List<TableEntity> withoutETags(List<TableEntity> entities) {
    return entities.stream().map(e -> e.toBuilder().etag(null).build()).toList();
  }

  @DatabaseTest
  void everyTypeComesBackExactFromNdjsonCsvAndACopy(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      fill(service, "Source", samples());
      List<TableEntity> source = TransferTest.all(service, "Source");
      assertThat(source).hasSize(samples().size());

      Path csv = dir.resolve("source.csv");
      cli(db, account, "export", "--table", "Source", "--out", csv.toString());
      cli(db, account, "import", "--table", "FromCsv", "--in", csv.toString());
      assertThat(TransferTest.all(service, "FromCsv")).containsExactlyElementsOf(source);

      Path ndjson = dir.resolve("source.ndjson");
      cli(db, account, "export", "--table", "Source", "--out", ndjson.toString());
      cli(db, account, "import", "--table", "FromNdjson", "--in", ndjson.toString());
      assertThat(TransferTest.all(service, "FromNdjson")).containsExactlyElementsOf(source);

      List<String> copy =
          new ArrayList<>(List.of("copy", "--table", "Source", "--to-db", empty.url()));
      if (db.username() != null) {
        copy.addAll(List.of("--to-db-user", db.username()));
      }
      if (db.password() != null) {
        copy.addAll(List.of("--to-db-password", db.password()));
      }
      cli(db, account, copy.toArray(String[]::new));
      try (TableService copied =
          TableService.builder()
              .jdbcUrl(empty.url())
              .credentials(db.username(), db.password())
              .account(account)
              .build()) {
        assertThat(TransferTest.all(copied, "Source")).containsExactlyElementsOf(source);
      }
    }
  }

  /**
   * A copy between the two kinds of database, H2 to PostgreSQL and back into another H2: keys and
   * strings change their stored encoding on the way (PostgreSQL's order-preserving text), values,
   * Timestamps and ETags must not.
   */
  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void everyTypeComesBackExactFromH2ThroughPostgresqlIntoAnotherH2OnPostgresql(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    String h2 = "jdbc:h2:mem:from-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    String back = "jdbc:h2:mem:back-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    List<TableEntity> entities = new ArrayList<>(samples());
    entities.add(
        TableEntity.builder("\uE000\uFFFF\u00e9", "\uD83D\uDE00\uE000")
            .put("Nul", "a\u0000b\u0001c\uFFFF\uE000")
            .timestamp(Instant.parse("2021-06-07T08:09:10.9999999Z"))
            .build());
    try (TableService from = TableService.builder().jdbcUrl(h2).account(account).build();
        CliDatabases.Empty postgresql = CliDatabases.empty(db)) {
      fill(from, "Source", entities);
      List<TableEntity> source = TransferTest.all(from, "Source");
      assertThat(source).hasSize(entities.size());

      List<String> there =
          new ArrayList<>(
              List.of("copy", "--db", h2, "--account", account, "--to-db", postgresql.url()));
      if (db.username() != null) {
        there.addAll(List.of("--to-db-user", db.username()));
      }
      if (db.password() != null) {
        there.addAll(List.of("--to-db-password", db.password()));
      }
      there.addAll(List.of("--quiet", "--verify"));
      CliRun copied = CliRun.run(there.toArray(String[]::new));
      assertThat(copied.exitCode()).as(copied.out() + copied.err()).isZero();
      try (TableService onPostgresql =
          TableService.builder()
              .jdbcUrl(postgresql.url())
              .credentials(db.username(), db.password())
              .account(account)
              .build()) {
        assertThat(TransferTest.all(onPostgresql, "Source")).containsExactlyElementsOf(source);
      }

      String[] home =
          CliDatabases.args(
              List.of("copy"),
              postgresql.flags(),
              "--account",
              account,
              "--to-db",
              back,
              "--quiet",
              "--verify");
      CliRun returned = CliRun.run(home);
      assertThat(returned.exitCode()).as(returned.out() + returned.err()).isZero();
      try (TableService again = TableService.builder().jdbcUrl(back).account(account).build()) {
        assertThat(TransferTest.all(again, "Source")).containsExactlyElementsOf(source);
      }
    }
  }

  @DatabaseTest
  void aSqlTableKeepsEveryTypeButSplitsMixedPropertiesRoundsMicrosOnPostgresqlAndZeroSignOnH2(
      TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      fill(service, "Source", samples());
      List<TableEntity> source = TransferTest.all(service, "Source");
      String url = sqlUrl(db, empty);
      List<String> export = new ArrayList<>(List.of("export", "--table", "Source", "--to-sql"));
      export.addAll(sqlFlags(db, url));
      export.addAll(List.of("--sql-table", "source rows"));
      CliRun exported = cli(db, account, export.toArray(String[]::new));
      assertThat(exported.err())
          .contains(
              "Table source rows: property 'Mixed' has several types: columns [Mixed_String"
                  + " (Edm.String), Mixed_Int32 (Edm.Int32)].");
      // the losses are reported as they happen, counted exactly
      boolean onPostgresql = db.kind() != TestDatabase.Kind.H2;
      long inexact = source.stream().mapToLong(e -> inexactValues(e, onPostgresql)).sum();
      assertThat(inexact).isPositive();
      assertThat(exported.err())
          .contains(
              "Table source rows: "
                  + inexact
                  + " values are not stored exactly ("
                  + (onPostgresql
                      ? "timestamp with time zone holds microseconds: the seventh fractional digit"
                          + " of DateTimes and Timestamps is dropped"
                      : "-0.0 is stored as 0.0")
                  + ").");

      List<String> in = new ArrayList<>(List.of("import", "--table", "FromSql", "--from-sql"));
      in.addAll(sqlFlags(db, url));
      in.addAll(List.of("--query", "select * from \"source rows\""));
      cli(db, account, in.toArray(String[]::new));

      boolean micros = db.kind() != TestDatabase.Kind.H2;
      List<TableEntity> expected = source.stream().map(e -> throughSqlTable(e, micros)).toList();
      assertThat(withoutETags(TransferTest.all(service, "FromSql")))
          .containsExactlyElementsOf(withoutETags(expected));
    }
  }

  /** The entity's values (its Timestamp too) that a SQL table does not hold exactly. */
  private static long inexactValues(TableEntity entity, boolean micros) {
    long values =
        entity.properties().values().stream()
            .filter(
                value ->
                    micros
                        ? value instanceof PropertyValue.DateTimeValue t
                            && t.value().getNano() % 1_000 != 0
                        : value instanceof PropertyValue.DoubleValue d
                            && Double.doubleToRawLongBits(d.value()) == Long.MIN_VALUE)
            .count();
    return values + (micros && entity.timestamp().getNano() % 1_000 != 0 ? 1 : 0);
  }

  /** What a SQL table gives back: the documented losses, exactly. */
  private static TableEntity throughSqlTable(TableEntity entity, boolean micros) {
    Map<String, PropertyValue> properties = new LinkedHashMap<>();
    entity
        .properties()
        .forEach(
            (name, value) -> {
              if (name.equals("Mixed")) {
                name = "Mixed_" + value.type().odataName().substring(4);
              }
              if (micros && value instanceof PropertyValue.DateTimeValue t) {
                value = PropertyValue.of(toMicros(t.value()));
              }
              // H2 stores -0.0 as 0.0
              if (!micros
                  && value instanceof PropertyValue.DoubleValue d
                  && Double.doubleToRawLongBits(d.value()) == Long.MIN_VALUE) {
                value = PropertyValue.of(0.0);
              }
              properties.put(name, value);
            });
    TableEntity.Builder back = TableEntity.builder(entity.partitionKey(), entity.rowKey());
    properties.forEach(back::put);
    return back.timestamp(micros ? toMicros(entity.timestamp()) : entity.timestamp()).build();
  }

  private static Instant toMicros(Instant at) {
    return at.truncatedTo(ChronoUnit.MICROS);
  }

  @DatabaseTest
  void aQueryBecomesTypedEntitiesWithKeysFromAColumnAndAnExpression(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      String url = sqlUrl(db, empty);
      boolean h2 = db.kind() == TestDatabase.Kind.H2;
      try (Connection connection = DriverManager.getConnection(url, db.username(), db.password());
          Statement statement = connection.createStatement()) {
        statement.execute(
            "create table \"Orders\" (\"Id\" integer, \"Region\" varchar(10), \"Total\""
                + " numeric(12,2), \"Huge\" numeric(30,0), \"Count\" numeric(10,0), \"Qty\""
                + " smallint, \"N\" bigint, \"Price\" real, \"Ok\" boolean, \"At\" timestamp with"
                + " time zone, \"Local\" timestamp, \"Day\" date, \"Uid\" uuid, \"Raw\" "
                + (h2 ? "varbinary" : "bytea")
                + ", \"Note\" varchar(100))");
        statement.execute(
            "insert into \"Orders\" values (7, 'eu', 12.50, 123456789012345678901234567890, 9,"
                + " 3, 9007199254740993, 1.5, true, timestamp with time zone '2024-01-02"
                + " 03:04:05.123456+02:00', timestamp '2024-01-02 03:04:05', date '2024-01-02',"
                + " '01234567-89ab-cdef-0123-456789abcdef', "
                + (h2 ? "X'00ff'" : "'\\x00ff'")
                + ", null)");
      }
      List<String> in = new ArrayList<>(List.of("import", "--table", "Orders", "--from-sql"));
      in.addAll(sqlFlags(db, url));
      in.addAll(
          List.of(
              "--query",
              "select * from \"Orders\" order by \"Id\"",
              "--partition-key",
              "Region",
              "--row-key",
              "lpad(cast(\"Id\" as varchar(10)), 5, '0')"));
      cli(db, account, in.toArray(String[]::new));
      TableEntity read = TransferTest.all(service, "Orders").getFirst();
      assertThat(read.partitionKey()).isEqualTo("eu");
      assertThat(read.rowKey()).isEqualTo("00007");
      assertThat(read.properties())
          .containsExactly(
              Map.entry("Id", PropertyValue.of(7)),
              Map.entry("Total", PropertyValue.of("12.50")),
              Map.entry("Huge", PropertyValue.of("123456789012345678901234567890")),
              Map.entry("Count", PropertyValue.of(9L)),
              Map.entry("Qty", PropertyValue.of(3)),
              Map.entry("N", PropertyValue.of(9007199254740993L)),
              Map.entry("Price", PropertyValue.of(1.5)),
              Map.entry("Ok", PropertyValue.of(true)),
              Map.entry("At", PropertyValue.of(Instant.parse("2024-01-02T01:04:05.123456Z"))),
              Map.entry("Local", PropertyValue.of(Instant.parse("2024-01-02T03:04:05Z"))),
              Map.entry("Day", PropertyValue.of(Instant.parse("2024-01-02T00:00:00Z"))),
              Map.entry(
                  "Uid", PropertyValue.of(UUID.fromString("01234567-89ab-cdef-0123-456789abcdef"))),
              Map.entry("Raw", PropertyValue.of(new byte[] {0, (byte) 255})));
    }
  }

  @DatabaseTest
  void aStorageExplorerCsvLoadsWithItsTypesAbsentCellsAndQuotedLines(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    Path csv = dir.resolve("explorer.csv");
    Files.writeString(
        csv,
        "\uFEFFPartitionKey,RowKey,Timestamp,Name,Name@type,Count,Count@type,Big,Big@type,Ok,Ok@type,When,When@type,Note\r\n"
            + "p1,r1,2021-03-15T10:00:00.123Z,\"Smith, \"\"J\"\"\r\nline 2\",Edm.String,5,Int32,"
            + "9007199254740993,Edm.Int64,True,Boolean,2024-01-02T03:04:05.1234567Z,Edm.DateTime,plain\r\n"
            + "p1,r2,,,String,,,,,,,,,\r\n",
        StandardCharsets.UTF_8);
    try (TableService service = db.newService(account)) {
      cli(db, account, "import", "--table", "Explorer", "--in", csv.toString());
      List<TableEntity> read = TransferTest.all(service, "Explorer");
      assertThat(read.get(0).timestamp()).isEqualTo(Instant.parse("2021-03-15T10:00:00.123Z"));
      assertThat(read.get(0).properties())
          .containsExactly(
              Map.entry("Name", PropertyValue.of("Smith, \"J\"\r\nline 2")),
              Map.entry("Count", PropertyValue.of(5)),
              Map.entry("Big", PropertyValue.of(9007199254740993L)),
              Map.entry("Ok", PropertyValue.of(true)),
              Map.entry("When", PropertyValue.of(Instant.parse("2024-01-02T03:04:05.1234567Z"))),
              Map.entry("Note", PropertyValue.of("plain")));
      assertThat(read.get(1).properties()).containsExactly(Map.entry("Name", PropertyValue.of("")));
    }
  }

  /** An unquoted comma makes a record longer than its header: refused, not shifted into columns. */
  @DatabaseTest
  void aCsvRecordWithMoreFieldsThanTheHeaderIsRefused(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    Path csv = dir.resolve("shifted.csv");
    Files.writeString(
        csv, "PartitionKey,RowKey,Name,City\r\np,1,Smith, John,Paris\r\np,2,Doe,Rome\r\n");
    try (TableService service = db.newService(account)) {
      List<String> in = new ArrayList<>(List.of("import"));
      in.addAll(CliDatabases.flags(db));
      in.addAll(
          List.of("--account", account, "--quiet", "--table", "Shifted", "--in", csv.toString()));
      CliRun run = CliRun.run(in.toArray(String[]::new));
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.DATA);
      assertThat(run.err()).contains("Record 1 of " + csv + ": 5 fields, the header has 4.");
    }
  }

  @DatabaseTest
  void aQueryImportStoppedByANullKeyResumesAfterItsFixWithNoGapAndNoDuplicate(TestDatabase db)
      throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService service = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      String url = sqlUrl(db, empty);
      try (Connection connection = DriverManager.getConnection(url, db.username(), db.password());
          Statement statement = connection.createStatement()) {
        statement.execute(
            "create table \"Rows\" (\"Part\" varchar(10), \"RowKey\" varchar(10), \"N\" integer)");
        statement.execute(
            "insert into \"Rows\" select case when x = 2346 then null else 'p' || (x / 100) end,"
                + " lpad(cast(x as varchar(10)), 6, '0'), x from "
                + (db.kind() == TestDatabase.Kind.H2
                    ? "system_range(1, 2500)"
                    : "generate_series(1, 2500) x"));
      }
      Path checkpoint = dir.resolve("sql.checkpoint");
      List<String> in = new ArrayList<>(List.of("import"));
      in.addAll(CliDatabases.flags(db));
      in.addAll(List.of("--account", account, "--quiet", "--table", "Rows", "--from-sql"));
      in.addAll(sqlFlags(db, url));
      in.addAll(
          List.of(
              "--query",
              "select * from \"Rows\" order by \"RowKey\"",
              "--partition-key",
              "Part",
              "--checkpoint",
              checkpoint.toString()));
      CliRun first = CliRun.run(in.toArray(String[]::new));
      assertThat(first.exitCode()).as(first.err()).isEqualTo(ExitCode.DATA);
      assertThat(first.err())
          .contains("Row 2346 of the query has a NULL PartitionKey")
          .contains("2345 entities before it are committed");
      assertThat(checkpoint).exists();

      try (Connection connection = DriverManager.getConnection(url, db.username(), db.password());
          Statement statement = connection.createStatement()) {
        statement.execute("update \"Rows\" set \"Part\" = 'fixed' where \"Part\" is null");
      }
      in.add("--resume");
      CliRun resumed = CliRun.run(in.toArray(String[]::new));
      assertThat(resumed.exitCode()).as(resumed.err()).isZero();
      assertThat(resumed.err()).contains("Imported 155 entities");
      List<TableEntity> all = TransferTest.all(service, "Rows");
      assertThat(all).hasSize(2500);
      assertThat(all.stream().map(e -> e.getInt32("N")).sorted().toList())
          .isEqualTo(java.util.stream.IntStream.rangeClosed(1, 2500).boxed().toList());
    }
  }
}
