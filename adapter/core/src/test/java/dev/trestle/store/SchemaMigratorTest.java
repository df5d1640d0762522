package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

class SchemaMigratorTest {
  /** The newest migration of both databases (they keep their versions in step). */
  private static final String LATEST = "7";

  @DatabaseTest
  void migratesAnEmptyDatabaseOnceAndReportsTheVersion(TestDatabase database) throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      assertThat(SchemaMigrator.version(empty)).isEmpty();
      assertThat(SchemaMigrator.migrate(empty)).isEqualTo(LATEST);
      assertThat(SchemaMigrator.migrate(empty)).isEqualTo(LATEST);
      assertThat(SchemaMigrator.version(empty)).contains(LATEST);
      try (TableService service = TableService.builder().dataSource(empty).migrate(false).build()) {
        service.createTable("works");
        service.tableClient("works").insert(TableEntity.builder("p", "r").put("n", 1).build());
        assertThat(
                service
                    .tableClient("works")
                    .query(dev.trestle.EntityQuery.filter("n eq 1"))
                    .entities())
            .hasSize(1);
      }
    }
  }

  @DatabaseTest
  void describesEveryTableAndColumnOfTheSchemaInTheCatalogue(TestDatabase database)
      throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      SchemaMigrator.migrate(empty);
      describedIn(empty, database);
    }
  }

  private static void describedIn(HikariDataSource empty, TestDatabase database)
      throws SQLException {
    try (Connection connection = empty.getConnection()) {
      DatabaseMetaData meta = connection.getMetaData();
      String schema = connection.getSchema();
      List<String> undescribed = new ArrayList<>();
      for (String table :
          List.of(
              "trestle_table",
              "trestle_entity",
              "trestle_service_properties",
              "trestle_property_index")) {
        String name = database.kind() == TestDatabase.Kind.H2 ? table.toUpperCase() : table;
        try (ResultSet tables = meta.getTables(null, schema, name, null)) {
          assertThat(tables.next()).as(table).isTrue();
          if (tables.getString("REMARKS") == null || tables.getString("REMARKS").isBlank()) {
            undescribed.add(table);
          }
        }
        try (ResultSet columns = meta.getColumns(null, schema, name, null)) {
          while (columns.next()) {
            if (columns.getString("REMARKS") == null || columns.getString("REMARKS").isBlank()) {
              undescribed.add(table + "." + columns.getString("COLUMN_NAME"));
            }
          }
        }
      }
      assertThat(undescribed).isEmpty();
    }
  }

  /** A fresh H2 in-memory database, or a fresh schema on the test PostgreSQL. */
  private static HikariDataSource emptyDatabase(TestDatabase database) throws SQLException {
    String name =
        "trestle_m_" + Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE), 36);
    HikariConfig config = new HikariConfig();
    config.setMaximumPoolSize(2);
    if (database.kind() == TestDatabase.Kind.H2) {
      config.setJdbcUrl("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
    } else {
      try (Connection connection = database.dataSource().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE SCHEMA " + name);
      }
      config.setJdbcUrl(database.jdbcUrl());
      config.setUsername(database.username());
      config.setPassword(database.password());
      config.setSchema(name);
    }
    return new HikariDataSource(config) {
      @Override
      public void close() {
        super.close();
        if (database.kind() == TestDatabase.Kind.POSTGRESQL) {
          try (Connection connection = database.dataSource().getConnection();
              Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA " + name + " CASCADE");
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    };
  }
}
