package dev.trestle.store.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** The databases Trestle supports, recognised from JDBC metadata. */
public enum DatabaseKind {
  H2("h2"),
  POSTGRESQL("postgresql");

  private final String migrationFolder;

  DatabaseKind(String migrationFolder) {
    this.migrationFolder = migrationFolder;
  }

  /** The folder under {@code dev/trestle/migrations/} holding this database's migrations. */
  public String migrationFolder() {
    return migrationFolder;
  }

  public static DatabaseKind of(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return of(connection.getMetaData().getDatabaseProductName());
    } catch (SQLException e) {
      throw new TableException(TableErrorCode.INTERNAL_ERROR, "Cannot connect to the database: " + e.getMessage(), e);
    }
  }

  static DatabaseKind of(String productName) {
    if (productName.equalsIgnoreCase("H2")) {
      return H2;
    }
    if (productName.equalsIgnoreCase("PostgreSQL")) {
      return POSTGRESQL;
    }
    throw new IllegalStateException("Trestle supports H2 and PostgreSQL, not " + productName
        + ". Point the JDBC URL at one of them.");
  }
}
