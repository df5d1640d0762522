package dev.trestle.store;

import dev.trestle.store.internal.database.DatabaseTypes;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

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

  private SchemaMigrator() {}

  /** Brings the schema up to date; returns the version now applied. */
  public static String migrate(DataSource dataSource) {
    flyway(dataSource).migrate();
    return version(dataSource).orElseThrow();
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
    return Flyway.configure(SchemaMigrator.class.getClassLoader())
        .dataSource(dataSource)
        .locations(
            "classpath:dev/trestle/migrations/" + DatabaseTypes.of(dataSource).migrationFolder())
        .table(HISTORY_TABLE)
        .failOnMissingLocations(true)
        .load();
  }
}
