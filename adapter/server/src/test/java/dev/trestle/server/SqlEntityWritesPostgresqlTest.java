package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.ChangeFeed;
import dev.trestle.TableChange;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import dev.trestle.testing.TestDatabase.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The SQL functions of migrations/postgresql/R__entity_writes.sql write entities exactly as the
 * library does: the same stored properties, versions the library and the HTTP API read back as ETag
 * and Timestamp, Azure's errors as SQLSTATE TR + status, time to live and the change feed.
 */
class SqlEntityWritesPostgresqlTest extends ServerTest {
  private static final String ALL_TYPES =
      "{\"Text\": \"caf\u00e9 \uD83D\uDE00 \uE000\\u0001\", \"Count\": 7, \"Big@odata.type\": \"Edm.Int64\","
          + " \"Big\": \"9007199254740993\", \"Min@odata.type\": \"Edm.Int64\","
          + " \"Min\": \"-9223372036854775808\", \"Ratio\": 0.1, \"NaN@odata.type\": \"Edm.Double\","
          + " \"NaN\": \"NaN\", \"Inf@odata.type\": \"Edm.Double\", \"Inf\": \"Infinity\","
          + " \"NegInf@odata.type\": \"Edm.Double\", \"NegInf\": \"-Infinity\","
          + " \"NegZero@odata.type\": \"Edm.Double\", \"NegZero\": \"-0.0\", \"Whole\": 3.0,"
          + " \"Ok\": true, \"When@odata.type\": \"Edm.DateTime\","
          + " \"When\": \"1601-01-01T00:00:00.1234567Z\", \"Later@odata.type\": \"Edm.DateTime\","
          + " \"Later\": \"9999-12-31T23:59:59.9999999Z\", \"Id@odata.type\": \"Edm.Guid\","
          + " \"Id\": \"0F8FAD5B-D9CB-469F-A165-70867728950E\", \"Bytes@odata.type\": \"Edm.Binary\","
          + " \"Bytes\": \"AAEC/f7/\", \"Empty@odata.type\": \"Edm.Binary\", \"Empty\": \"\"}";

  private static TableEntity allTypes(String partitionKey, String rowKey) {
    return TableEntity.builder(partitionKey, rowKey)
        .put("Text", "caf\u00e9 \uD83D\uDE00 \uE000\u0001")
        .put("Count", 7)
        .put("Big", 9_007_199_254_740_993L)
        .put("Min", Long.MIN_VALUE)
        .put("Ratio", 0.1)
        .put("NaN", Double.NaN)
        .put("Inf", Double.POSITIVE_INFINITY)
        .put("NegInf", Double.NEGATIVE_INFINITY)
        .put("NegZero", -0.0)
        .put("Whole", 3.0)
        .put("Ok", true)
        .put("When", Instant.parse("1601-01-01T00:00:00.1234567Z"))
        .put("Later", Instant.parse("9999-12-31T23:59:59.9999999Z"))
        .put("Id", UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e"))
        .put("Bytes", new byte[] {0, 1, 2, (byte) 0xfd, (byte) 0xfe, (byte) 0xff})
        .put("Empty", new byte[0])
        .build();
  }

  @DatabaseTest(Kind.POSTGRESQL)
  void anEntityWrittenBySqlIsStoredAndReadExactlyAsOneWrittenByTheLibraryOnPostgresql(
      TableService tables, TestDatabase database) throws Exception {
    start(tables);
    String key = "k\uD83D\uDE00\uFFFF\u00e9";
    tables.createTable("viasql");
    tables.createTable("vialib");
    tables.tableClient("vialib").insert(allTypes(key, key));
    String etag;
    try (Connection sql = database.dataSource().getConnection()) {
      etag =
          call(
              sql,
              "select trestle_insert_entity(?, 'ViaSql', ?, ?, cast(? as json))",
              tables.accountName(),
              key,
              key,
              ALL_TYPES);
      assertThat(storedProperties(sql, tables.accountName(), "viasql"))
          .isEqualTo(storedProperties(sql, tables.accountName(), "vialib"));
    }

    TableEntity read = tables.tableClient("viasql").get(key, key);
    assertThat(read.properties()).containsExactlyEntriesOf(allTypes(key, key).properties());
    assertThat(read.etag()).isEqualTo(etag);
    assertThat(read.etag())
        .contains(read.timestamp().toString().replace(":", "%3A").substring(0, 19));

    String path =
        "(PartitionKey='k%F0%9F%98%80%EF%BF%BF%C3%A9',RowKey='k%F0%9F%98%80%EF%BF%BF%C3%A9')";
    var viaSql =
        fx.raw()
            .call("GET", "/viasql" + path)
            .header("Accept", "application/json;odata=fullmetadata")
            .send();
    var viaLibrary =
        fx.raw()
            .call("GET", "/vialib" + path)
            .header("Accept", "application/json;odata=fullmetadata")
            .send();
    assertThat(viaSql.status()).isEqualTo(200);
    assertThat(viaSql.header("ETag")).isEqualTo(etag);
    assertThat(withoutVersion(viaSql.body()).replace("viasql", "TABLE"))
        .isEqualTo(withoutVersion(viaLibrary.body()).replace("vialib", "TABLE"));
  }

  @DatabaseTest(Kind.POSTGRESQL)
  void doublesAreStoredInJavasShortestTextOnPostgresql(TestDatabase database) throws Exception {
    List<Double> values =
        new ArrayList<>(
            List.of(
                Double.MIN_VALUE,
                2 * Double.MIN_VALUE,
                20 * Double.MIN_VALUE,
                Double.MIN_NORMAL,
                Double.MAX_VALUE,
                1e23,
                2e23,
                1e7,
                9_999_999.0,
                1e-3,
                9.99e-4,
                0.1,
                100.0,
                -0.0,
                1.5e-5,
                123_456_789.125));
    Random random = new Random(15);
    for (int i = 0; i < 400; i++) {
      values.add(Double.longBitsToDouble(random.nextLong()));
      values.add(random.nextDouble() * Math.pow(10, random.nextInt(30) - 15));
      values.add((double) random.nextInt(1 << 20) / (1 << random.nextInt(12)));
    }
    values.removeIf(v -> v.isNaN() || v.isInfinite());
    try (Connection sql = database.dataSource().getConnection();
        PreparedStatement text = sql.prepareStatement("select trestle_double_text(?)")) {
      for (double value : values) {
        text.setDouble(1, value);
        try (ResultSet row = text.executeQuery()) {
          row.next();
          assertThat(row.getString(1)).as("%s", value).isEqualTo(Double.toString(value));
        }
      }
    }
  }

  @DatabaseTest(Kind.POSTGRESQL)
  void versionsConditionsAndErrorsAreTheApisOnPostgresql(TableService tables, TestDatabase database)
      throws Exception {
    String account = tables.accountName();
    tables.createTable("things");
    TableClient things = tables.tableClient("things");
    try (Connection sql = database.dataSource().getConnection()) {
      String first =
          call(
              sql,
              "select trestle_insert_entity(?, 'things', 'p', 'r', '{\"A\": 1, \"B\": \"b\"}')",
              account);
      assertFails(
          sql,
          "TR409",
          "EntityAlreadyExists: ",
          "select trestle_insert_entity(?, 'things', 'p', 'r')",
          account);

      String merged =
          call(
              sql,
              "select trestle_merge_entity(?, 'things', 'p', 'r', '{\"C\": 3, \"A\": 2}', ?)",
              account,
              first);
      assertThat(things.get("p", "r").properties().keySet()).containsExactly("A", "B", "C");
      assertThat(things.get("p", "r").getInt32("A")).isEqualTo(2);
      assertThat(things.get("p", "r").etag()).isEqualTo(merged).isNotEqualTo(first);
      assertFails(
          sql,
          "TR412",
          "UpdateConditionNotSatisfied: ",
          "select trestle_update_entity(?, 'things', 'p', 'r', '{}', ?)",
          account,
          first);

      // the library's write of an entity SQL wrote, and SQL's write over the library's version
      String library =
          things.update(TableEntity.builder("p", "r").put("D", 4).build(), merged).etag();
      String replaced =
          call(
              sql,
              "select trestle_update_entity(?, 'things', 'p', 'r', '{\"E\": 5}', ?)",
              account,
              library);
      assertThat(things.get("p", "r").properties()).containsOnlyKeys("E");
      assertThat(things.get("p", "r").etag()).isEqualTo(replaced);

      call(sql, "select trestle_upsert_entity(?, 'things', 'p', 'r', '{\"F\": 6}', true)", account);
      assertThat(things.get("p", "r").properties()).containsOnlyKeys("E", "F");
      call(sql, "select trestle_upsert_entity(?, 'things', 'p', 'r', '{\"G\": 7}')", account);
      assertThat(things.get("p", "r").properties()).containsOnlyKeys("G");
      call(
          sql,
          "select trestle_upsert_entity(?, 'things', 'p', 'new', '{\"H\": 8}', true)",
          account);
      assertThat(things.get("p", "new").getInt32("H")).isEqualTo(8);

      call(sql, "select trestle_delete_entity(?, 'things', 'p', 'r')", account);
      assertThat(things.extensions().exists("p", "r")).isFalse();
      assertFails(
          sql,
          "TR404",
          "ResourceNotFound: ",
          "select trestle_delete_entity(?, 'things', 'p', 'r')",
          account);
      assertFails(
          sql,
          "TR404",
          "ResourceNotFound: ",
          "select trestle_merge_entity(?, 'things', 'p', 'r')",
          account);
      assertFails(
          sql,
          "TR404",
          "TableNotFound: ",
          "select trestle_insert_entity(?, 'nosuch', 'p', 'r')",
          account);

      assertFails(
          sql,
          "TR400",
          "OutOfRangeInput: The 'PartitionKey'",
          "select trestle_insert_entity(?, 'things', 'a/b', 'r')",
          account);
      assertFails(
          sql,
          "TR400",
          "KeyValueTooLarge: The 'RowKey'",
          "select trestle_insert_entity(?, 'things', 'p', repeat('x', 513))",
          account);
      assertFails(
          sql,
          "TR400",
          "PropertyNameInvalid: ",
          "select trestle_insert_entity(?, 'things', 'p', 'x', '{\"1st\": 1}')",
          account);
      assertFails(
          sql,
          "TR400",
          "InvalidInput: The value of property 'N' is not a valid Edm.Int64",
          "select trestle_insert_entity(?, 'things', 'p', 'x', '{\"N@odata.type\": \"Edm.Int64\", \"N\": \"9223372036854775808\"}')",
          account);
      assertFails(
          sql,
          "TR400",
          "OutOfRangeInput: The date-time value '1600-12-31T23:59:59Z'",
          "select trestle_insert_entity(?, 'things', 'p', 'x', '{\"T@odata.type\": \"Edm.DateTime\", \"T\": \"1600-12-31T23:59:59Z\"}')",
          account);
      assertFails(
          sql,
          "TR400",
          "PropertyValueTooLarge: The property 'S'",
          "select trestle_insert_entity(?, 'things', 'p', 'x', json_build_object('S', repeat('x', 32769)))",
          account);
      assertFails(
          sql,
          "TR413",
          "EntityTooLarge: ",
          "select trestle_insert_entity(?, 'things', 'p', 'x', (select json_object_agg('S' || i, repeat('x', 32000)) from generate_series(1, 17) i))",
          account);
      assertFails(
          sql,
          "TR400",
          "InvalidInput: Unsupported property type 'Edm.Decimal'",
          "select trestle_insert_entity(?, 'things', 'p', 'x', '{\"N@odata.type\": \"Edm.Decimal\", \"N\": \"1\"}')",
          account);
      assertThat(things.extensions().exists("p", "x")).isFalse();
    }
  }

  @DatabaseTest(Kind.POSTGRESQL)
  void anExpiredEntityIsAbsentAndTheChangeFeedSeesEveryWriteOnPostgresql(
      TableService tables, TestDatabase database) throws Exception {
    String account = tables.accountName();
    tables.createTable("expiring");
    TableClient expiring = tables.tableClient("expiring");
    expiring.extensions().timeToLive(TimeToLive.entitiesOnly());
    ChangeFeed feed = expiring.extensions().changeFeed();
    String from = feed.enable(true, Duration.ofDays(1));
    String past =
        "{\"TrestleExpires@odata.type\": \"Edm.DateTime\", \"TrestleExpires\": \"2001-01-01T00:00:00Z\", \"A\": 1}";
    try (Connection sql = database.dataSource().getConnection()) {
      call(
          sql,
          "select trestle_insert_entity(?, 'expiring', 'p', 'r', cast(? as json))",
          account,
          past);
      assertThat(expiring.extensions().exists("p", "r")).isFalse();
      assertFails(
          sql,
          "TR404",
          "ResourceNotFound: ",
          "select trestle_merge_entity(?, 'expiring', 'p', 'r', '{\"B\": 2}')",
          account);
      // an insert over the expired entity is an insert of a new one
      call(sql, "select trestle_insert_entity(?, 'expiring', 'p', 'r', '{\"C\": 3}')", account);
      assertThat(expiring.get("p", "r").properties()).containsOnlyKeys("C");
      call(sql, "select trestle_merge_entity(?, 'expiring', 'p', 'r', '{\"D\": 4}')", account);
      call(sql, "select trestle_delete_entity(?, 'expiring', 'p', 'r')", account);
    }
    List<TableChange> changes = feed.read(from).changes();
    assertThat(changes)
        .extracting(TableChange::kind)
        .containsExactly(
            TableChange.Kind.INSERT,
            TableChange.Kind.DELETE,
            TableChange.Kind.INSERT,
            TableChange.Kind.UPDATE,
            TableChange.Kind.DELETE);
    assertThat(changes.get(3).entity().properties()).containsOnlyKeys("C", "D");
  }

  @DatabaseTest(Kind.POSTGRESQL)
  void anUpsertMeetingAConcurrentInsertWritesOverItOnPostgresql(
      TableService tables, TestDatabase database) throws Exception {
    String account = tables.accountName();
    tables.createTable("racing");
    try (Connection first = database.dataSource().getConnection();
        Connection second = database.dataSource().getConnection()) {
      first.setAutoCommit(false);
      call(first, "select trestle_insert_entity(?, 'racing', 'p', 'r', '{\"A\": 1}')", account);
      // the upsert waits for the insert's key, then finds it inserted: it merges, not fails
      var upsert =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  return call(
                      second,
                      "select trestle_upsert_entity(?, 'racing', 'p', 'r', '{\"B\": 2}', true)",
                      account);
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      Thread.sleep(300);
      first.commit();
      assertThat(upsert.get(60, java.util.concurrent.TimeUnit.SECONDS)).startsWith("W/");
    }
    assertThat(tables.tableClient("racing").get("p", "r").properties()).containsOnlyKeys("A", "B");
  }

  private static void assertFails(
      Connection sql, String sqlState, String messageStart, String statement, String... binds) {
    assertThatThrownBy(() -> call(sql, statement, binds))
        .isInstanceOfSatisfying(
            SQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo(sqlState);
              assertThat(e.getMessage()).contains("ERROR: " + messageStart);
            });
  }

  private static String call(Connection sql, String statement, String... binds)
      throws SQLException {
    try (PreparedStatement call = sql.prepareStatement(statement)) {
      for (int i = 0; i < binds.length; i++) {
        call.setString(i + 1, binds[i]);
      }
      try (ResultSet row = call.executeQuery()) {
        row.next();
        return row.getString(1);
      }
    }
  }

  private static String storedProperties(Connection sql, String account, String table)
      throws SQLException {
    try (Statement statement = sql.createStatement();
        ResultSet row =
            statement.executeQuery(
                "select e.partition_key || '|' || e.row_key || '|' || e.properties::text"
                    + " from trestle_entity e join trestle_table t on t.id = e.table_id"
                    + " where t.account = '"
                    + account
                    + "' and t.name_key = '"
                    + table
                    + "'")) {
      row.next();
      return row.getString(1);
    }
  }

  private static final Pattern VERSION =
      Pattern.compile("\"(odata\\.etag|Timestamp)\":\"(?:[^\"\\\\]|\\\\.)*\"");

  private static String withoutVersion(String body) {
    return VERSION.matcher(body).replaceAll("\"$1\":\"-\"");
  }
}
