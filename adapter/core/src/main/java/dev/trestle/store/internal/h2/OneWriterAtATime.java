package dev.trestle.store.internal.h2;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.h2.jdbc.JdbcConnection;

/**
 * Lets one transaction at a time write to an H2 database file, from its first writing statement
 * through its commit or rollback. H2 2.3 saves its maps one after another while other transactions
 * go on changing them (h2database#2080: a consistent snapshot is kept per map, not across maps), so
 * the chunk a commit writes can hold a row of a transaction still in flight without the undo-log
 * entry that would roll it back when the file is opened again: after a crash, part of a transaction
 * that was never acknowledged would stand as committed. With one writer at a time, every save of
 * the file happens in the writing thread, between whole changes of one transaction. H2 writes its
 * commits to the file one after another anyway; what this costs is statements of several writers
 * overlapping. Reads never wait here. A writer waits for the gate as long as it would wait for a
 * row lock (the database's lock timeout: {@code LOCK_TIMEOUT} in the URL, 2 s by default), then
 * fails as a lock timeout does, before its statement runs: the store runs a single write again and
 * reports {@code ServerBusy} when it keeps failing, as for H2's own lock timeouts. H2 also saves
 * the file whenever a transaction rolls back, even one that only read: a transaction that never
 * passed the gate ends committed instead (it changed nothing), and an aborted connection is closed
 * inside the gate.
 *
 * <p>The writers of one database file in this process share one gate, whatever store or pool they
 * came through (the file is open in one process; several processes sharing an H2 server are not
 * ordered, which is one more reason to give each server its own file). An in-memory database has
 * nothing to save, but its writers pass a gate too, so that tests run H2 as production does.
 */
final class OneWriterAtATime {
  /** One gate per database: a file's absolute path, an in-memory database's name. */
  private static final Map<String, WriterGate> WRITERS = new ConcurrentHashMap<>();

  /** Statements that cannot change the database (the text's first word). */
  private static final List<String> READING =
      List.of("select", "values", "table", "explain", "show");

  private static final Pattern CHANGING =
      Pattern.compile("\\b(insert|update|delete|merge)\\b", Pattern.CASE_INSENSITIVE);

  private OneWriterAtATime() {}

  /** The data source, its writers let in one at a time. */
  static DataSource around(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet database =
            statement.executeQuery("select database_path(), database(), lock_timeout()")) {
      database.next();
      String path = database.getString(1);
      // a file by its absolute path, an in-memory database by its name
      String name =
          path != null
              ? Path.of(path).toAbsolutePath().normalize().toString()
              : "mem:" + database.getString(2);
      long lockTimeout = database.getLong(3);
      return new GuardedDataSource(
          dataSource, WRITERS.computeIfAbsent(name, any -> new WriterGate(lockTimeout)));
    } catch (SQLException e) {
      throw new IllegalStateException("The H2 database could not be named", e);
    }
  }

  /**
   * Whether the statement may change the database: anything but a plain query. Asked of every
   * statement prepared, so it reads the text in place.
   */
  static boolean writes(String sql) {
    int start = 0;
    while (start < sql.length()
        && (Character.isWhitespace(sql.charAt(start)) || sql.charAt(start) == '(')) {
      start++;
    }
    int end = start;
    while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    if (word(sql, start, end, "with")) {
      return CHANGING.matcher(sql).find() || locks(sql, 0);
    }
    for (String reading : READING) {
      if (word(sql, start, end, reading)) {
        // FOR UPDATE closes a query in H2's grammar, followed at most by its wait option
        return locks(sql, Math.max(0, sql.length() - 64));
      }
    }
    return true;
  }

  private static boolean word(String sql, int start, int end, String word) {
    return end - start == word.length() && sql.regionMatches(true, start, word, 0, word.length());
  }

  /** Whether the text holds the words FOR UPDATE from {@code from} on. */
  private static boolean locks(String sql, int from) {
    for (int i = from; i + 10 <= sql.length(); i++) {
      if (sql.regionMatches(true, i, "for", 0, 3)
          && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)))
          && i + 3 < sql.length()
          && Character.isWhitespace(sql.charAt(i + 3))) {
        int next = i + 3;
        while (next < sql.length() && Character.isWhitespace(sql.charAt(next))) {
          next++;
        }
        if (sql.regionMatches(true, next, "update", 0, 6)
            && (next + 6 == sql.length() || !Character.isLetterOrDigit(sql.charAt(next + 6)))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Hands out connections that pass the writers' gate before they write. */
  private record GuardedDataSource(DataSource delegate, WriterGate writer) implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      return Writing.connection(delegate.getConnection(), writer, delegate);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      return Writing.connection(delegate.getConnection(username, password), writer, delegate);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
      return delegate.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
      delegate.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      delegate.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return delegate.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      return delegate.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      return type.isInstance(this) ? type.cast(this) : delegate.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
      return type.isInstance(this) || delegate.isWrapperFor(type);
    }
  }

  /**
   * One connection's hold on the gate: taken by its first writing statement, given back when its
   * transaction ends (commit, rollback, auto-commit, close).
   */
  private static final class Writing implements InvocationHandler {
    private final Connection connection;
    private final WriterGate writer;

    /** Where the connection came from: a pool must let go of a connection aborted. */
    private final DataSource source;

    private Connection proxy;
    private boolean holding;

    private Writing(Connection connection, WriterGate writer, DataSource source) {
      this.connection = connection;
      this.writer = writer;
      this.source = source;
    }

    static Connection connection(Connection connection, WriterGate writer, DataSource source) {
      Writing writing = new Writing(connection, writer, source);
      writing.proxy =
          (Connection)
              Proxy.newProxyInstance(
                  Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, writing);
      return writing.proxy;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      switch (name) {
        case "equals":
          return self == args[0];
        case "hashCode":
          return System.identityHashCode(self);
        default:
          break;
      }
      boolean ends =
          (name.equals("commit") || name.equals("rollback")) && args == null
              || name.equals("close")
              || name.equals("abort")
              || name.equals("setAutoCommit") && (Boolean) args[0];
      try {
        if (name.equals("rollback") && args == null && !holding) {
          endUnwritten();
          return null;
        }
        if (name.equals("close") && !holding) {
          endQuietly(); // a pool rolls back what is left open, and so does H2 on closing
        }
        if (name.equals("abort")) {
          abortInsideTheGate();
        }
        Object result;
        try {
          result = call(connection, method, args);
        } catch (Throwable failure) {
          if (name.equals("commit") && holding && pending()) {
            ends = false; // still writing until it is rolled back, which the caller does next
          }
          throw failure;
        }
        return switch (name) {
          // a query runs as it is: it never needs the gate
          case "prepareStatement", "prepareCall" ->
              writes((String) args[0]) ? statement((Statement) result, true) : result;
          case "createStatement" -> statement((Statement) result, false);
          default -> result;
        };
      } finally {
        if (ends) {
          release();
        }
      }
    }

    /** Whether the connection's transaction holds changes not yet committed nor rolled back. */
    private boolean pending() {
      try {
        return connection.unwrap(JdbcConnection.class).getSession().hasPendingTransaction();
      } catch (SQLException | RuntimeException e) {
        return false; // a connection that cannot say is broken: H2 ends its transaction on closing
      }
    }

    /** {@code preparedWrite}: a prepared statement that writes, not a plain statement. */
    private Statement statement(Statement statement, boolean preparedWrite) {
      Class<?> type =
          statement instanceof CallableStatement
              ? CallableStatement.class
              : statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
      return (Statement)
          Proxy.newProxyInstance(
              Statement.class.getClassLoader(),
              new Class<?>[] {type},
              new Executing(statement, preparedWrite));
    }

    /**
     * Ends this connection's transaction, which never passed the gate and so wrote nothing, as
     * committed: the same outcome as a rollback, without its cost. H2 saves its whole file at every
     * rollback, even of a transaction that only read ({@code Transaction.rollback} ends with a
     * store commit), and a save while another connection's transaction is writing is the very thing
     * the gate is for. A transaction that wrote all the same (a statement not known to write) is
     * rolled back inside the gate.
     */
    private void endUnwritten() throws SQLException {
      if (connection.getAutoCommit()) {
        return; // no transaction open
      }
      if (pending()) {
        take();
        connection.rollback();
      } else {
        connection.commit();
      }
    }

    /** {@link #endUnwritten} of a connection being given up: closing it ends whatever is left. */
    private void endQuietly() {
      try {
        if (!connection.isClosed()) {
          endUnwritten();
        }
      } catch (SQLException | RuntimeException e) {
        // broken: H2 has nothing left of its transaction, or ends it when the connection closes
      }
    }

    /**
     * Leaves a HikariCP pool, as it would, were it handed this proxy's delegate, having first
     * closed the physical connection, so that H2 rolls back what it left open here, inside the
     * gate, and not later on the pool's own thread while another transaction writes (H2 itself
     * ignores an abort). A connection of another source stays open: that source may hand it out
     * again.
     */
    private void abortInsideTheGate() {
      if (!(source instanceof HikariDataSource pool)) {
        return;
      }
      if (!holding) {
        endQuietly();
      }
      try {
        connection.unwrap(Connection.class).close();
      } catch (SQLException | RuntimeException e) {
        // already closed or broken: nothing left to roll back
      }
      pool.evictConnection(connection);
    }

    private void take() throws SQLException {
      if (!holding) {
        writer.enter();
        holding = true;
      }
    }

    private void release() {
      if (holding) {
        holding = false;
        writer.leave();
      }
    }

    /** A statement that passes its connection's gate before it runs anything that writes. */
    private final class Executing implements InvocationHandler {
      private final Statement statement;
      private final boolean preparedWrite;
      private boolean batchWrites;

      Executing(Statement statement, boolean preparedWrite) {
        this.statement = statement;
        this.preparedWrite = preparedWrite;
      }

      @Override
      public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.equals("getConnection")) {
          return proxy;
        }
        if (name.equals("addBatch") && args != null && args[0] instanceof String sql) {
          batchWrites |= writes(sql);
        }
        if (!name.startsWith("execute") || !runsWrite(name, args)) {
          return call(statement, method, args);
        }
        take();
        try {
          return call(statement, method, args);
        } finally {
          if (connection.getAutoCommit()) {
            release();
          }
        }
      }

      private boolean runsWrite(String name, Object[] args) {
        if (args != null && args[0] instanceof String sql) {
          return writes(sql);
        }
        return preparedWrite || batchWrites && name.contains("Batch");
      }
    }
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
