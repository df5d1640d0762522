package dev.trestle.store.internal.database;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jooq.ConnectionProvider;
import org.jooq.exception.DataAccessException;

/**
 * Hands jOOQ connections from the DataSource; a connection that cannot be had (database
 * unreachable, pool exhausted past its wait) becomes the same typed ServerBusy error as a statement
 * that lost its database. Each connection handed out may wait that long at most for the database to
 * answer (see {@link Store#silenceMillis}).
 */
final class TranslatingConnectionProvider implements ConnectionProvider {
  private final DataSource dataSource;
  private final SqlErrors errors;
  private final long silenceMillis;

  /** {@code silenceMillis}: 0 for no limit. */
  TranslatingConnectionProvider(DataSource dataSource, SqlErrors errors, long silenceMillis) {
    this.dataSource = dataSource;
    this.errors = errors;
    this.silenceMillis = silenceMillis;
  }

  @Override
  public Connection acquire() {
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      throw errors.translate(
          new DataAccessException("No database connection could be had: " + e.getMessage(), e));
    }
    if (silenceMillis > 0) {
      try {
        allowSilence(connection, silenceMillis);
      } catch (RuntimeException e) {
        release(connection);
        throw e;
      }
    }
    return connection;
  }

  /**
   * How long the connection's next reads may wait for the database before the connection counts as
   * lost (a socket timeout; 0: no limit). A pool restores its own setting when the connection
   * returns.
   */
  void allowSilence(Connection connection, long millis) {
    try {
      connection.setNetworkTimeout(Runnable::run, Math.toIntExact(millis));
    } catch (SQLException e) {
      throw errors.translate(
          new DataAccessException(
              "A database connection could not be set up: " + e.getMessage(), e));
    }
  }

  @Override
  public void release(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      throw errors.translate(
          new DataAccessException("A database connection could not be released", e));
    }
  }
}
