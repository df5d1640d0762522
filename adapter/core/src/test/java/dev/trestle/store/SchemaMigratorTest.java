package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.store.internal.database.ScalarStoreMigration;
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
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

class SchemaMigratorTest {
  /** The newest migration of both databases (they keep their versions in step). */
  private static final String LATEST = "9";

  @DatabaseTest
  void migratesAnEmptyDatabaseOnceAndReportsTheVersion(TestDatabase database) throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      assertThat(SchemaMigrator.version(empty)).isEmpty();
      assertThat(SchemaMigrator.migrate(empty, withScalarStore(database))).isEqualTo(LATEST);
      assertThat(SchemaMigrator.migrate(empty, withScalarStore(database))).isEqualTo(LATEST);
      assertThat(SchemaMigrator.version(empty)).contains(LATEST);
      assertThat(SchemaMigrator.NEWEST_VERSION.getVersion()).isEqualTo(LATEST);
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
      SchemaMigrator.migrate(empty, withScalarStore(database));
      describedIn(empty, database);
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  void v8FillsAndV9SignsAChosenScalarStoreFromTheEntitiesAlreadyStoredOnPostgresql(
      TestDatabase database) throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      org.flywaydb.core.Flyway.configure(SchemaMigratorTest.class.getClassLoader())
          .dataSource(empty)
          .locations("classpath:dev/trestle/migrations/postgresql")
          .table(SchemaMigrator.HISTORY_TABLE)
          .target("7")
          .load()
          .migrate();
      try (TableService service = TableService.builder().dataSource(empty).migrate(false).build()) {
        service.createTable("before");
      }
      try (Connection connection = empty.getConnection();
          Statement statement = connection.createStatement()) {
        // rows as a version-7 server stored them: no scalar store yet
        statement.execute(
            "insert into trestle_entity select id, 'p', 'r' || n, 1000000 + n,"
                + " jsonb_build_object('S', jsonb_build_array('s', repeat('a', n), 0),"
                + " 'I', jsonb_build_array('i', n, 1), 'X', jsonb_build_array('x', repeat('ab', n), 2))"
                + " from trestle_table, generate_series(0, 70) n");
        statement.execute(
            "insert into trestle_entity select id, 'p', 'empty', 1, '{}' from trestle_table");
      }
      assertThat(SchemaMigrator.migrate(empty, true)).isEqualTo(LATEST);
      try (Connection connection = empty.getConnection();
          Statement statement = connection.createStatement();
          ResultSet row =
              statement.executeQuery(
                  "select count(*), count(*) filter (where s.scalars = trestle_scalars(e.properties)),"
                      + " count(*) filter (where s.scalars -> 'sS' = 'true'),"
                      + " (select scalars::text from trestle_entity_scalar where row_key = 'empty'),"
                      + " count(*) filter (where s.signature = trestle_string_signature(e.properties)"
                      + " and s.signature <> 0)"
                      + " from trestle_entity e join trestle_entity_scalar s"
                      + " using (table_id, partition_key, row_key)")) {
        row.next();
        assertThat(row.getLong(1)).isEqualTo(72);
        assertThat(row.getLong(2)).isEqualTo(72);
        assertThat(row.getLong(3)).as("strings longer than 64 characters").isEqualTo(6);
        assertThat(row.getString(4)).isEqualTo("{}");
        // version 9 signed them: each string of 64 characters or fewer sets bits
        assertThat(row.getLong(5)).as("signed rows").isEqualTo(65);
      }
      // and a filter on a string finds them through the signatures
      try (TableService service = TableService.builder().dataSource(empty).migrate(false).build()) {
        assertThat(
                service
                    .tableClient("before")
                    .query(
                        dev.trestle.EntityQuery.filter(
                            "S eq 'aaa' or S eq '" + "a".repeat(70) + "'"))
                    .entities())
            .extracting(TableEntity::rowKey)
            .containsExactly("r3", "r70");
      }
      try (Connection connection = empty.getConnection();
          Statement statement = connection.createStatement()) {
        // a truncate of the entities by hand leaves no scalar row behind
        statement.execute("truncate trestle_entity");
        try (ResultSet left =
            statement.executeQuery("select count(*) from trestle_entity_scalar")) {
          left.next();
          assertThat(left.getLong(1)).isZero();
        }
      }
    }
  }

  /**
   * The scalar store is the choice of the start that migrates a database to version 8, and no later
   * start changes it: one that asks for it on a database without fails, saying why; one that does
   * not ask on a database with it keeps it in step all the same.
   */
  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void theScalarStoreIsChosenOnceWhenTheSchemaIsMigratedToVersion8(TestDatabase database)
      throws SQLException {
    try (HikariDataSource without = emptyDatabase(database)) {
      SchemaMigrator.migrate(without);
      assertThat(SchemaMigrator.hasScalarStore(without)).isFalse();
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> SchemaMigrator.migrate(without, true))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("created without the scalar store");
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> TableService.builder().dataSource(without).scalarStore(true).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("scalar store");
      assertThat(SchemaMigrator.hasScalarStore(without)).isFalse();
    }
    try (HikariDataSource with = emptyDatabase(database)) {
      SchemaMigrator.migrate(with, true);
      assertThat(SchemaMigrator.migrate(with)).isEqualTo(LATEST);
      assertThat(SchemaMigrator.hasScalarStore(with)).isTrue();
      try (TableService service = TableService.builder().dataSource(with).build()) {
        service.createTable("kept");
        service.tableClient("kept").insert(TableEntity.builder("p", "r").put("n", 1).build());
        service
            .tableClient("kept")
            .upsertReplace(TableEntity.builder("p", "r").put("n", 2).build());
      }
      try (Connection connection = with.getConnection();
          Statement statement = connection.createStatement();
          ResultSet row =
              statement.executeQuery(
                  "select count(*) filter (where s.scalars = trestle_scalars(e.properties))"
                      + " from trestle_entity e join trestle_entity_scalar s"
                      + " using (table_id, partition_key, row_key)")) {
        row.next();
        assertThat(row.getLong(1)).isEqualTo(1);
      }
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void theScalarStoreIsRefusedOnH2(TestDatabase database) throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> SchemaMigrator.migrate(empty, true))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("The scalar store is PostgreSQL's");
      assertThat(SchemaMigrator.version(empty)).isEmpty();
    }
  }

  @DatabaseTest
  void refusesADatabaseANewerTrestleHasMigrated(TestDatabase database) throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      SchemaMigrator.migrate(empty, withScalarStore(database));
      migratedByANewerTrestle(empty, database);
      int applied = historyRows(empty);
      String refusal = "schema is at version 10, newer than this Trestle's (" + LATEST + ")";

      assertThatThrownBy(() -> SchemaMigrator.migrate(empty))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(refusal);
      assertThatThrownBy(() -> TableService.builder().dataSource(empty).migrate(false).build())
          .hasMessageContaining(refusal);
      assertThatThrownBy(() -> TableService.builder().dataSource(empty).build())
          .hasMessageContaining(refusal);
      // Nothing of this Trestle's was applied again over the newer one's.
      assertThat(historyRows(empty)).isEqualTo(applied);
    }
  }

  /**
   * An older Trestle that looked at the history before a newer one migrated finds the newer version
   * under Flyway's lock, and applies none of its repeatable scripts over the newer ones.
   */
  @DatabaseTest
  void anOlderTrestleThatLookedBeforeTheNewerOneMigratedAppliesNothing(TestDatabase database)
      throws SQLException {
    try (HikariDataSource empty = emptyDatabase(database)) {
      SchemaMigrator.migrate(empty, withScalarStore(database));
      migratedByANewerTrestle(empty, database);
      int applied = historyRows(empty);
      Flyway older =
          Flyway.configure(SchemaMigratorTest.class.getClassLoader())
              .dataSource(empty)
              .locations(
                  "classpath:dev/trestle/migrations/" + folder(database),
                  "classpath:dev/trestle/store/older")
              .javaMigrations(new ScalarStoreMigration(withScalarStore(database)))
              .table(SchemaMigrator.HISTORY_TABLE)
              .callbacks(new NewerSchemaGuard())
              .load();

      assertThatThrownBy(older::migrate)
          .hasStackTraceContaining("schema is at version 10, newer than this Trestle's (9)");
      assertThat(historyRows(empty)).isEqualTo(applied);
      try (Connection connection = empty.getConnection();
          ResultSet tables =
              connection
                  .getMetaData()
                  .getTables(
                      null,
                      connection.getSchema(),
                      database.kind() == TestDatabase.Kind.H2
                          ? "OLDER_SCRIPT_RAN"
                          : "older_script_ran",
                      null)) {
        assertThat(tables.next()).isFalse();
      }
    }
  }

  private static String folder(TestDatabase database) {
    return database.kind() == TestDatabase.Kind.H2 ? "h2" : "postgresql";
  }

  /** Applies a version 10 that does nothing, as a later Trestle's migrations would. */
  private static void migratedByANewerTrestle(HikariDataSource dataSource, TestDatabase database) {
    Flyway.configure(SchemaMigratorTest.class.getClassLoader())
        .dataSource(dataSource)
        .locations("classpath:dev/trestle/migrations/" + folder(database))
        .javaMigrations(
            new ScalarStoreMigration(withScalarStore(database)), new V10__A_newer_trestle())
        .table(SchemaMigrator.HISTORY_TABLE)
        .load()
        .migrate();
  }

  /**
   * A later Trestle's version 10 (Flyway reads the version from the class's name): it does nothing.
   */
  static final class V10__A_newer_trestle extends BaseJavaMigration {
    @Override
    public void migrate(Context context) {}
  }

  private static int historyRows(HikariDataSource dataSource) {
    return Flyway.configure(SchemaMigratorTest.class.getClassLoader())
        .dataSource(dataSource)
        .table(SchemaMigrator.HISTORY_TABLE)
        .load()
        .info()
        .applied()
        .length;
  }

  private static boolean withScalarStore(TestDatabase database) {
    return database.kind() == TestDatabase.Kind.POSTGRESQL_SCALAR_STORE;
  }

  private static void describedIn(HikariDataSource empty, TestDatabase database)
      throws SQLException {
    try (Connection connection = empty.getConnection()) {
      DatabaseMetaData meta = connection.getMetaData();
      String schema = connection.getSchema();
      List<String> undescribed = new ArrayList<>();
      List<String> described =
          new ArrayList<>(
              List.of(
                  "trestle_table",
                  "trestle_entity",
                  "trestle_service_properties",
                  "trestle_property_index"));
      if (withScalarStore(database)) {
        described.add("trestle_entity_scalar");
      }
      for (String table : described) {
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
        if (database.kind() != TestDatabase.Kind.H2) {
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
