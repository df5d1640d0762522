package dev.trestle.store.internal.database;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jooq.ConnectionProvider;
import org.jooq.exception.DataAccessException;

/**
 * Hands jOOQ connections from the DataSource; a connection that cannot be had (database unreachable, pool
 * exhausted past its wait) becomes the same typed ServerBusy error as a statement that lost its database.
 */
final class TranslatingConnectionProvider implements ConnectionProvider {
  private final DataSource dataSource;
  private final SqlErrors errors;

  TranslatingConnectionProvider(DataSource dataSource, SqlErrors errors) {
    this.dataSource = dataSource;
    this.errors = errors;
  }

  @Override
  public Connection acquire() {
    try {
      return dataSource.getConnection();
    } catch (SQLException e) {
      throw errors.translate(new DataAccessException("No database connection could be had: " + e.getMessage(), e));
    }
  }

  @Override
  public void release(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      throw errors.translate(new DataAccessException("A database connection could not be released", e));
    }
  }
}
