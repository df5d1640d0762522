package dev.trestle.store.internal.database;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Schema version 8: on PostgreSQL, the scalar store ({@code trestle_entity_scalar}) when the
 * database's creator chose it, filled from the entities already stored; nothing otherwise, and
 * nothing on H2. It runs once per database, so the choice is fixed from then on: every server of
 * the database finds the store or its absence, whatever it was started with, and keeps it in step.
 */
public final class ScalarStoreMigration implements JavaMigration {
  private static final String SCRIPT =
      "/dev/trestle/migrations/optional/postgresql-scalar-store.sql";

  /** The table whose presence says a database has the scalar store. */
  public static final String TABLE = "trestle_entity_scalar";

  private final boolean chosen;

  public ScalarStoreMigration(boolean chosen) {
    this.chosen = chosen;
  }

  @Override
  public MigrationVersion getVersion() {
    return MigrationVersion.fromVersion("8");
  }

  @Override
  public String getDescription() {
    return "scalar store when chosen";
  }

  /** None: what it does depends on the choice, which a later start may not repeat. */
  @Override
  public Integer getChecksum() {
    return null;
  }

  @Override
  public boolean canExecuteInTransaction() {
    return true;
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    if (!chosen || !connection.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute(script());
    }
  }

  /** Whether the database behind this connection has the scalar store. */
  public static boolean exists(Connection connection) throws SQLException {
    if (!connection.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
      return false;
    }
    try (Statement statement = connection.createStatement();
        var rows = statement.executeQuery("select to_regclass('" + TABLE + "') is not null")) {
      return rows.next() && rows.getBoolean(1);
    }
  }

  private static String script() {
    try (InputStream in = ScalarStoreMigration.class.getResourceAsStream(SCRIPT)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + SCRIPT);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
