package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

class SchemaMigratorTest {
  /** The newest migration of both databases (they keep their versions in step). */
  private static final String LATEST = "5";

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
