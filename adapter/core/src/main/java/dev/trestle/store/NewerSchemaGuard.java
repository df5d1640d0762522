package dev.trestle.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.callback.BaseCallback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;

/**
 * Refuses, under Flyway's lock, to apply anything to a schema a newer Trestle migrated after this
 * one looked: two processes of different versions may start at once in an upgrade, and the older
 * one would otherwise apply its repeatable scripts over the newer one's.
 */
final class NewerSchemaGuard extends BaseCallback {
  private final MigrationVersion ours;

  NewerSchemaGuard(MigrationVersion ours) {
    this.ours = ours;
  }

  @Override
  public boolean supports(Event event, Context context) {
    return event == Event.BEFORE_EACH_MIGRATE;
  }

  @Override
  public void handle(Event event, Context context) {
    String applied =
        "SELECT \"version\" FROM \""
            + SchemaMigrator.HISTORY_TABLE
            + "\" WHERE \"version\" IS NOT NULL AND \"success\"";
    try (Statement statement = context.getConnection().createStatement();
        ResultSet versions = statement.executeQuery(applied)) {
      while (versions.next()) {
        MigrationVersion version = MigrationVersion.fromVersion(versions.getString(1));
        if (version.isNewerThan(ours)) {
          throw new NewerSchemaException(version.getVersion(), ours.getVersion());
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read the schema history: " + e.getMessage(), e);
    }
  }
}
