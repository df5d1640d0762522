package dev.trestle.store;

import dev.trestle.store.internal.database.DatabaseTypes;
import dev.trestle.store.internal.database.ScalarStoreMigration;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jooq.exception.DataAccessException;

/**
 * Applies Trestle's schema migrations to a supported database, in the connection's current schema.
 * The migrations for the database at hand are picked from its JDBC metadata; Flyway records what it
 * applied in {@code trestle_schema_history}. Safe to run from several processes at once (Flyway
 * locks).
 */
public final class SchemaMigrator {
  /**
   * The Flyway history table, named so it does not collide with an application's own Flyway
   * history.
   */
  public static final String HISTORY_TABLE = "trestle_schema_history";

  /**
   * The newest schema version this Trestle carries (SchemaMigratorTest holds it to the migrations).
   */
  static final MigrationVersion NEWEST_VERSION = MigrationVersion.fromVersion("9");

  private SchemaMigrator() {}

  /** Brings the schema up to date; returns the version now applied. */
  public static String migrate(DataSource dataSource) {
    return migrate(dataSource, false);
  }

  /**
   * Brings the schema up to date, with the scalar store when {@code scalarStore} (PostgreSQL: a
   * narrow copy of each entity's small values that filters on properties without a declared index
   * read, at about half again the cost of a batch insert). The store is chosen when schema version
   * 8 is applied, at a database's creation or its upgrade to 8, and never after: a database that
   * has it keeps it whatever later starts ask.
   *
   * @throws IllegalStateException when the store is asked for on a database that was migrated to
   *     version 8 without it, or on another database than PostgreSQL; or when a newer Trestle has
   *     migrated the database (see {@link #refuseNewerSchema})
   */
  public static String migrate(DataSource dataSource, boolean scalarStore) {
    if (scalarStore) {
      String database = DatabaseTypes.of(dataSource).name();
      if (!database.equals("PostgreSQL")) {
        throw new IllegalStateException(
            "The scalar store is PostgreSQL's: "
                + database
                + " evaluates filters on the entity rows themselves; start without it");
      }
    }
    refuseNewerSchema(dataSource);
    try {
      configuration(dataSource, scalarStore).callbacks(new NewerSchemaGuard()).load().migrate();
    } catch (FlywayException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof NewerSchemaException newer) {
          throw newer;
        }
      }
      throw e;
    }
    if (scalarStore && !hasScalarStore(dataSource)) {
      throw new IllegalStateException(
          "This database was created without the scalar store, which can only be chosen when its"
              + " schema is created or upgraded to version 8; to have it, copy the data into a new"
              + " database (trestle copy) created with it, or start without it");
    }
    return version(dataSource).orElseThrow();
  }

  /**
   * Fails when a newer Trestle has migrated this database past every version this one carries. Its
   * statements and functions are then the newer Trestle's: this one would write without what they
   * keep in step, and its migrations would put its own older functions back over theirs (Flyway
   * applies a repeatable script again whenever its text differs). {@link #migrate} checks this
   * first; a Trestle that does not migrate checks it at start.
   *
   * @throws NewerSchemaException when the database's schema is newer than this Trestle's
   */
  public static void refuseNewerSchema(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      NewerSchemaGuard.check(connection);
    } catch (SQLException e) {
      // not an IllegalStateException: that one says the configuration is wrong
      throw new DataAccessException(
          "Could not read the database's schema history: " + e.getMessage(), e);
    }
  }

  /** Whether this database has the scalar store (see {@link #migrate(DataSource, boolean)}). */
  public static boolean hasScalarStore(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return ScalarStoreMigration.exists(connection);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read the database's schema: " + e.getMessage(), e);
    }
  }

  /**
   * The schema version applied to this database, or empty when Trestle's schema is not there yet.
   */
  public static Optional<String> version(DataSource dataSource) {
    MigrationInfo current = flyway(dataSource).info().current();
    return current == null || current.getVersion() == null
        ? Optional.empty()
        : Optional.of(current.getVersion().getVersion());
  }

  /**
   * Whether every migration this Trestle carries is applied: a database an older Trestle made lacks
   * tables or functions the queries need until it is migrated.
   */
  public static boolean upToDate(DataSource dataSource) {
    return flyway(dataSource).info().pending().length == 0;
  }

  private static Flyway flyway(DataSource dataSource) {
    return configuration(dataSource, false).load();
  }

  private static FluentConfiguration configuration(DataSource dataSource, boolean scalarStore) {
    return Flyway.configure(SchemaMigrator.class.getClassLoader())
        .javaMigrations(new ScalarStoreMigration(scalarStore))
        .dataSource(dataSource)
        .locations(
            "classpath:dev/trestle/migrations/" + DatabaseTypes.of(dataSource).migrationFolder())
        .table(HISTORY_TABLE)
        .failOnMissingLocations(true);
  }
}
