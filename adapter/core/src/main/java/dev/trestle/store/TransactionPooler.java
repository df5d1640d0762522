package dev.trestle.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recognises a PostgreSQL reached through a pooler in transaction mode (PgBouncer's {@code
 * pool_mode = transaction}), where one client connection uses different server sessions from one
 * transaction to the next. There pgjdbc's named server-side prepared statements ({@code S_1}, ...)
 * are not safe: another client's statement of the same name can run instead of one's own, or the
 * name can be missing. Such a URL gets {@code prepareThreshold=0}, so that every statement is
 * prepared unnamed within its own round trip. Trestle keeps no other session state: every statement
 * that needs a setting (isolation, a cursor) runs inside the transaction that sets it.
 */
public final class TransactionPooler {
  private static final Logger log = LoggerFactory.getLogger(TransactionPooler.class);
  private static final int ROUNDS = 3;

  private TransactionPooler() {}

  /**
   * The URL to pool connections to: unchanged unless it is a PostgreSQL URL without a {@code
   * prepareThreshold} of its own whose connections turn out to share server sessions; then with
   * {@code prepareThreshold=0}. A database that cannot be reached leaves the URL unchanged.
   */
  public static String adapt(String jdbcUrl, String user, String password) {
    if (jdbcUrl == null
        || !jdbcUrl.startsWith("jdbc:postgresql:")
        || jdbcUrl.contains("prepareThreshold=")) {
      return jdbcUrl;
    }
    Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (password != null) {
      properties.setProperty("password", password);
    }
    properties.setProperty("connectTimeout", "5");
    try {
      if (!sessionsAreShared(jdbcUrl, properties)) {
        return jdbcUrl;
      }
    } catch (SQLException e) {
      if (!namedStatementsMixedUp(e)) {
        log.debug("Could not probe {} for a transaction pooler: {}", jdbcUrl, e.getMessage());
        return jdbcUrl;
      }
    }
    log.info(
        "The database is reached through a pooler in transaction mode (e.g. PgBouncer): using unnamed"
            + " prepared statements (prepareThreshold=0)");
    return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "prepareThreshold=0";
  }

  /**
   * Refuses a caller's PostgreSQL DataSource that reaches the database through a pooler in
   * transaction mode while pgjdbc still names its prepared statements: statements could run as
   * other clients' statements. The probe ends each of its statements' transactions itself, so a
   * DataSource handing out connections with auto-commit off is probed as well; a pool that cannot
   * lend two connections at once is probed on one, across transactions.
   *
   * @throws IllegalStateException naming the setting to add
   */
  public static void check(javax.sql.DataSource dataSource) {
    boolean onlyOne =
        dataSource instanceof com.zaxxer.hikari.HikariDataSource pool
            && pool.getMaximumPoolSize() < 2;
    try (Connection first = dataSource.getConnection()) {
      if (!first.getMetaData().getDatabaseProductName().equals("PostgreSQL")
          || !namesPreparedStatements(first)) {
        return;
      }
      if (onlyOne) {
        if (!oneSessionServesTwo(first)) {
          return;
        }
      } else {
        try (Connection second = dataSource.getConnection()) {
          if (!sessionsAreShared(first, second)) {
            return;
          }
        }
      }
    } catch (SQLException e) {
      if (!namedStatementsMixedUp(e)) {
        log.debug("Could not probe the DataSource for a transaction pooler: {}", e.getMessage());
        return;
      }
      // the probe's own statements, once pgjdbc named them, met another session's: proof enough
    }
    throw new IllegalStateException(
        "The database is reached through a pooler in transaction mode (e.g."
            + " PgBouncer), where named prepared statements are unsafe: add prepareThreshold=0 to the JDBC URL.");
  }

  /**
   * PostgreSQL's errors for a named prepared statement that exists already in the session (42P05)
   * or does not exist in it (26000): what a pooler handing out sessions per transaction causes.
   */
  private static boolean namedStatementsMixedUp(SQLException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql
          && ("42P05".equals(sql.getSQLState()) || "26000".equals(sql.getSQLState()))) {
        return true;
      }
    }
    return false;
  }

  /** Whether one connection's transactions were served by more than one server session. */
  private static boolean oneSessionServesTwo(Connection connection) throws SQLException {
    int first = backend(connection);
    for (int round = 0; round < 4 * ROUNDS; round++) {
      if (backend(connection) != first) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether pgjdbc names this connection's prepared statements (a {@code prepareThreshold} above
   * 0); false for another driver. pgjdbc is asked reflectively: it is an optional dependency, and
   * it may live on the class path while Trestle is a named module, which could not read it
   * directly.
   */
  private static boolean namesPreparedStatements(Connection connection) throws SQLException {
    Class<?> pgConnection;
    try {
      pgConnection =
          Class.forName(
              "org.postgresql.PGConnection",
              false,
              connection.unwrap(Connection.class).getClass().getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return false; // not pgjdbc
    }
    try {
      Object threshold =
          pgConnection.getMethod("getPrepareThreshold").invoke(connection.unwrap(pgConnection));
      return ((Integer) threshold) > 0;
    } catch (ReflectiveOperationException e) {
      log.debug("Could not read pgjdbc's prepareThreshold: {}", e.toString());
      return false;
    }
  }

  static boolean sessionsAreShared(String jdbcUrl, Properties properties) throws SQLException {
    try (Connection first = DriverManager.getConnection(jdbcUrl, properties);
        Connection second = DriverManager.getConnection(jdbcUrl, properties)) {
      return sessionsAreShared(first, second);
    }
  }

  /**
   * Two open connections served by one server session, or one connection served by two: a pooler
   * hands out sessions per transaction. Without one, each connection keeps its own session for its
   * whole life.
   */
  private static boolean sessionsAreShared(Connection first, Connection second)
      throws SQLException {
    for (int round = 0; round < ROUNDS; round++) {
      int before = backend(first);
      int other = backend(second);
      int after = backend(first);
      if (before == other || before != after) {
        return true;
      }
    }
    return false;
  }

  /**
   * The server session serving this statement; its transaction ends here, so that a pooler in
   * transaction mode may serve the next one from another session even when auto-commit is off.
   */
  private static int backend(Connection connection) throws SQLException {
    int pid;
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("select pg_backend_pid()")) {
      result.next();
      pid = result.getInt(1);
    }
    if (!connection.getAutoCommit()) {
      connection.rollback();
    }
    return pid;
  }
}
