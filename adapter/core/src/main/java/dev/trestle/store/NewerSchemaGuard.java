package dev.trestle.store;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.callback.BaseCallback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.jooq.exception.DataAccessException;

/**
 * Refuses a schema a newer Trestle has migrated. Checked on one connection before migrating or at a
 * start that does not migrate, and again under Flyway's lock before each migration: two processes
 * of different versions may start at once in an upgrade, and the older one would otherwise apply
 * its repeatable scripts over the newer one's.
 */
final class NewerSchemaGuard extends BaseCallback {
  @Override
  public boolean supports(Event event, Context context) {
    return event == Event.BEFORE_EACH_MIGRATE;
  }

  @Override
  public void handle(Event event, Context context) {
    try {
      check(context.getConnection());
    } catch (SQLException e) {
      throw new DataAccessException("Could not read the schema history: " + e.getMessage(), e);
    }
  }

  /**
   * @throws NewerSchemaException when the history holds a version newer than this Trestle's
   */
  static void check(Connection connection) throws SQLException {
    if (!hasHistory(connection)) {
      return;
    }
    String applied =
        "SELECT \"version\" FROM \""
            + SchemaMigrator.HISTORY_TABLE
            + "\" WHERE \"version\" IS NOT NULL AND \"success\"";
    try (Statement statement = connection.createStatement();
        ResultSet versions = statement.executeQuery(applied)) {
      while (versions.next()) {
        MigrationVersion version = MigrationVersion.fromVersion(versions.getString(1));
        if (version.isNewerThan(SchemaMigrator.NEWEST_VERSION)) {
          throw new NewerSchemaException(
              version.getVersion(), SchemaMigrator.NEWEST_VERSION.getVersion());
        }
      }
    }
  }

  private static boolean hasHistory(Connection connection) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    try (ResultSet tables =
        meta.getTables(
            connection.getCatalog(), connection.getSchema(), SchemaMigrator.HISTORY_TABLE, null)) {
      return tables.next();
    }
  }
}
