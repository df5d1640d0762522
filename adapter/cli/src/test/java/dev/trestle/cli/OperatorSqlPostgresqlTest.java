package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * The operator views (installed by the migrations) and the SQL under sql/postgresql run against the
 * current schema and show what the library stored.
 */
class OperatorSqlPostgresqlTest {
  private static final Path SQL = Path.of("../../sql/postgresql");

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void migratedViewsShowKeysTimesAndLosslessTypedPropertiesAsWrittenOnPostgresql(TestDatabase db)
      throws Exception {
    String trickyKey = "b\uE000c\uD83D\uDE00d";
    Instant when = Instant.parse("1601-01-01T00:00:00.1234567Z");
    try (CliDatabases.Empty empty = CliDatabases.empty(db);
        TableService service =
            TableService.builder()
                .jdbcUrl(empty.url())
                .credentials(db.username(), db.password())
                .build()) {
      service.createTable("orders");
      service
          .tableClient("orders")
          .insert(
              TableEntity.builder("customer-42", "order-001")
                  .put("Quantity", 7)
                  .put("Big", 1L << 40)
                  .put("Price", -0.0)
                  .put("Shipped", true)
                  .put("When", when)
                  .put("Id", new UUID(1, 2))
                  .put("Bytes", new byte[] {1, 2, 3})
                  .put("Note", "caf\u00e9")
                  .build());
      service
          .tableClient("orders")
          .insert(
              TableEntity.builder(trickyKey, "\uFFFF")
                  .put("Text", "a\u0000b\u0001\uD83D\uDE00")
                  .build());

      try (Connection connection = connect(empty, db);
          Statement statement = connection.createStatement()) {
        // the views come with the migrations: nothing to install
        List<String> entities =
            rows(
                statement,
                "SELECT partition_key, row_key, properties::text FROM trestle_entities"
                    + " WHERE account = 'devstoreaccount1' AND table_name = 'orders' ORDER BY ticks");
        assertThat(entities)
            .containsExactly(
                "customer-42|order-001|{\"Id\": \"00000000-0000-0001-0000-000000000002\", \"Big\": \"1099511627776\", "
                    + "\"Note\": \"caf\u00e9\", \"When\": \"1601-01-01T00:00:00.1234567Z\", \"Bytes\": \"AQID\", "
                    + "\"Price\": \"-0.0\", \"Shipped\": true, \"Quantity\": 7}",
                "b\uE000c\uD83D\uDE00d|\uFFFF|{\"Text\": \"a\uFFFDb\\u0001\uD83D\uDE00\"}");

        List<String> typed =
            rows(
                statement,
                "SELECT name, edm_type, value_integer, value_double, value_boolean,"
                    + " value_time, value_guid, encode(value_binary, 'hex') FROM trestle_properties"
                    + " WHERE row_key = 'order-001' ORDER BY position");
        assertThat(typed)
            .containsExactly(
                "Quantity|Edm.Int32|7|null|null|null|null|null",
                "Big|Edm.Int64|1099511627776|null|null|null|null|null",
                "Price|Edm.Double|null|-0|null|null|null|null",
                "Shipped|Edm.Boolean|null|null|t|null|null|null",
                "When|Edm.DateTime|null|null|null|1601-01-01 00:00:00.123456+00|null|null",
                "Id|Edm.Guid|null|null|null|null|00000000-0000-0001-0000-000000000002|null",
                "Bytes|Edm.Binary|null|null|null|null|null|010203",
                "Note|Edm.String|null|null|null|null|null|null");
      }
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void exampleQueriesRunOnPostgresql(TestDatabase db) throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db);
        TableService service =
            TableService.builder()
                .jdbcUrl(empty.url())
                .credentials(db.username(), db.password())
                .build()) {
      service.createTable("orders");
      service
          .tableClient("orders")
          .insert(TableEntity.builder("customer-42", "order-001").put("Quantity", 7).build());
      try (Connection connection = connect(empty, db);
          Statement statement = connection.createStatement()) {
        int results = 0;
        boolean isResult = statement.execute(Files.readString(SQL.resolve("examples.sql")));
        while (isResult || statement.getUpdateCount() != -1) {
          if (isResult) {
            try (ResultSet ignored = statement.getResultSet()) {
              results++;
            }
          }
          isResult = statement.getMoreResults();
        }
        long statements =
            Files.readString(SQL.resolve("examples.sql"))
                .lines()
                .filter(line -> line.endsWith(";"))
                .count();
        assertThat(results).isEqualTo(statements);
      }
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void propertyIndexIsCreatedOnceInTheCurrentSchemaAndDroppedAsItsCommentSaysOnPostgresql(
      TestDatabase db) throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db);
        TableService service =
            TableService.builder()
                .jdbcUrl(empty.url())
                .credentials(db.username(), db.password())
                .build()) {
      service.createTable("orders");
      for (int i = 0; i < 20; i++) {
        service
            .tableClient("orders")
            .insert(
                TableEntity.builder("customer-" + i % 3, "order-" + i)
                    .put("Status", i % 4 == 0 ? "open" : "shipped")
                    .put("Quantity", i)
                    .build());
      }
      String file = Files.readString(SQL.resolve("property-index.sql"));
      try (Connection connection = connect(empty, db);
          Statement statement = connection.createStatement()) {
        statement.execute(file);
        statement.execute(file); // IF NOT EXISTS: running it again changes nothing

        assertThat(
                rows(
                    statement,
                    "SELECT schemaname, indexdef FROM pg_indexes WHERE tablename = 'trestle_entity'"
                        + " AND indexname = 'trestle_entity_properties_gin'"
                        + " AND schemaname = current_schema()"))
            .containsExactly(
                empty.schema()
                    + "|CREATE INDEX trestle_entity_properties_gin ON "
                    + empty.schema()
                    + ".trestle_entity USING gin (properties jsonb_path_ops)");
        List<String> open = new ArrayList<>();
        service
            .tableClient("orders")
            .query(dev.trestle.EntityQuery.filter("Status eq 'open' and Quantity gt 0"))
            .entities()
            .forEach(e -> open.add(e.rowKey()));
        assertThat(open).containsExactly("order-12", "order-16", "order-4", "order-8");

        String drop =
            file.lines()
                .filter(line -> line.contains("DROP INDEX"))
                .findFirst()
                .orElseThrow()
                .replaceFirst("^--\\s*", "");
        statement.execute(drop);
        assertThat(
                rows(
                    statement,
                    "SELECT indexname FROM pg_indexes WHERE tablename = 'trestle_entity'"
                        + " AND schemaname = current_schema()"))
            .containsExactly("trestle_entity_pk");
      }
    }
  }

  private static Connection connect(CliDatabases.Empty empty, TestDatabase db) throws Exception {
    Properties properties = new Properties();
    if (db.username() != null) {
      properties.setProperty("user", db.username());
      properties.setProperty("password", db.password() == null ? "" : db.password());
    }
    return DriverManager.getConnection(empty.url(), properties);
  }

  private static List<String> rows(Statement statement, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(String.valueOf(result.getString(i)));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows;
  }
}
