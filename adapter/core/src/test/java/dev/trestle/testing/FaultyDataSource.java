package dev.trestle.testing;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource that misbehaves as a database, a network or a connection pooler can, at random:
 * statements fail, updates and deletes report success without changing anything (as a statement
 * that ran as another one behind a pooler does), commits fail before or after the database
 * committed, connections cannot be had, or only after a wait. Each fault's probability is set by
 * the test; {@link #unknownOutcomes()} counts the commits whose failure was reported although the
 * database did commit.
 */
public final class FaultyDataSource implements DataSource {
  private final DataSource target;
  private volatile double statementFailure;
  private volatile double silentNoOp;
  private volatile double commitFailure;
  private volatile double connectionFailure;
  private volatile Duration connectionWait = Duration.ZERO;
  private final AtomicInteger unknownOutcomes = new AtomicInteger();
  private final AtomicInteger silentNoOps = new AtomicInteger();

  public FaultyDataSource(DataSource target) {
    this.target = target;
  }

  /** Each statement fails with a generic error before it runs. */
  public FaultyDataSource statementFailures(double probability) {
    this.statementFailure = probability;
    return this;
  }

  /**
   * Each UPDATE or DELETE does nothing and reports that it changed no row, or each row of a batch.
   */
  public FaultyDataSource silentNoOps(double probability) {
    this.silentNoOp = probability;
    return this;
  }

  /** Each commit fails with a broken connection, half of them after the database committed. */
  public FaultyDataSource commitFailures(double probability) {
    this.commitFailure = probability;
    return this;
  }

  /** Each request for a connection fails as a pool that timed out does. */
  public FaultyDataSource connectionFailures(double probability) {
    this.connectionFailure = probability;
    return this;
  }

  /**
   * Each request for a connection waits this long first, as one from a pool with none free does.
   */
  public FaultyDataSource connectionWait(Duration wait) {
    this.connectionWait = wait;
    return this;
  }

  /** Faults off, from now on. */
  public void heal() {
    statementFailure = 0;
    silentNoOp = 0;
    commitFailure = 0;
    connectionFailure = 0;
    connectionWait = Duration.ZERO;
  }

  public int unknownOutcomes() {
    return unknownOutcomes.get();
  }

  public int silentNoOps() {
    return silentNoOps.get();
  }

  private static boolean chance(double probability) {
    return probability > 0 && ThreadLocalRandom.current().nextDouble() < probability;
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (!connectionWait.isZero()) {
      try {
        Thread.sleep(connectionWait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLTransientConnectionException(
            "interrupted while waiting for a connection", "08001", e);
      }
    }
    if (chance(connectionFailure)) {
      throw new SQLTransientConnectionException(
          "injected: connection is not available, request timed out", "08001");
    }
    return wrap(target.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return wrap(target.getConnection(username, password));
  }

  private Connection wrap(Connection connection) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "prepareStatement" -> {
              PreparedStatement statement = (PreparedStatement) invoke(connection, method, args);
              return wrap(statement, (String) args[0]);
            }
            case "commit" -> {
              if (chance(commitFailure)) {
                if (ThreadLocalRandom.current().nextBoolean()) {
                  connection.commit();
                  unknownOutcomes.incrementAndGet();
                }
                throw new SQLException("injected: I/O error while committing", "08006");
              }
              return invoke(connection, method, args);
            }
            default -> {
              return invoke(connection, method, args);
            }
          }
        };
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
  }

  private PreparedStatement wrap(PreparedStatement statement, String sql) {
    String verb = sql.stripLeading().toLowerCase(Locale.ROOT);
    if (verb.startsWith("with w as (")) {
      verb = verb.substring("with w as (".length()); // a write with its scalar row (PostgreSQL)
    }
    // an update or delete, also one that answers the rows it wrote (PostgreSQL's RETURNING, H2's
    // FINAL TABLE), whose silent no-op answers no row
    boolean changesRows =
        verb.startsWith("update")
            || verb.startsWith("delete")
            || verb.contains("final table (update");
    boolean[] skipped = {false};
    InvocationHandler handler =
        (proxy, method, args) -> {
          String name = method.getName();
          boolean runs = name.startsWith("execute");
          if (runs && chance(statementFailure)) {
            throw new SQLException("injected: statement failed", "XX000");
          }
          if (runs && changesRows && chance(silentNoOp)) {
            skipped[0] = true;
            silentNoOps.incrementAndGet();
            return switch (name) {
              case "execute" -> false;
              case "executeUpdate" -> 0;
              case "executeLargeUpdate" -> 0L;
              case "executeBatch" -> new int[batchSize(statement)];
              case "executeLargeBatch" -> new long[batchSize(statement)];
              case "executeQuery" -> noRows();
              default -> invoke(statement, method, args);
            };
          }
          if (skipped[0] && name.equals("getUpdateCount")) {
            skipped[0] = false;
            return 0;
          }
          if (name.equals("clearBatch") || name.equals("addBatch")) {
            batched(statement, name);
          }
          return invoke(statement, method, args);
        };
    return (PreparedStatement)
        Proxy.newProxyInstance(
            PreparedStatement.class.getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            handler);
  }

  /** The empty answer of a statement that returns the rows it wrote and wrote none. */
  private static java.sql.ResultSet noRows() {
    return (java.sql.ResultSet)
        Proxy.newProxyInstance(
            java.sql.ResultSet.class.getClassLoader(),
            new Class<?>[] {java.sql.ResultSet.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "next", "wasNull" -> false;
                  case "close" -> null;
                  case "isClosed" -> false;
                  default ->
                      throw new java.sql.SQLFeatureNotSupportedException(
                          "an empty result has no " + method.getName());
                });
  }

  private final java.util.Map<PreparedStatement, AtomicInteger> batches =
      java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

  private void batched(PreparedStatement statement, String call) {
    if (call.equals("addBatch")) {
      batches.computeIfAbsent(statement, s -> new AtomicInteger()).incrementAndGet();
    } else {
      batches.remove(statement);
    }
  }

  private int batchSize(PreparedStatement statement) {
    AtomicInteger size = batches.remove(statement);
    return size == null ? 0 : size.get();
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return target.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("FaultyDataSource wraps nothing it hands out");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }

  @Override
  public String toString() {
    return "FaultyDataSource"
        + Arrays.asList(statementFailure, silentNoOp, commitFailure, connectionFailure);
  }
}
