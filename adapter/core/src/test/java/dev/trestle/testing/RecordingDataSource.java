package dev.trestle.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * A DataSource that hands every transaction it saw end, as the statements it sent with their bind
 * values, to a consumer: a statement in auto-commit is a transaction of its own; otherwise a
 * transaction runs from the first statement to commit, rollback or close. Plain JDBC proxies, so
 * everything is seen, jOOQ's statements and any other.
 */
public final class RecordingDataSource {
  /** One execution of a statement: its SQL and its bind values by parameter index. */
  public record Execution(String sql, Map<Integer, Object> binds) {}

  private RecordingDataSource() {}

  public static DataSource wrap(DataSource target, Consumer<List<Execution>> transactions) {
    return proxy(
        DataSource.class,
        (proxy, method, args) -> {
          Object result = invoke(target, method, args);
          if (result instanceof Connection connection) {
            return proxy(Connection.class, new ConnectionHandler(connection, transactions));
          }
          return result;
        });
  }

  private static final class ConnectionHandler implements InvocationHandler {
    private final Connection target;
    private final Consumer<List<Execution>> transactions;
    private List<Execution> open = new ArrayList<>();

    ConnectionHandler(Connection target, Consumer<List<Execution>> transactions) {
      this.target = target;
      this.transactions = transactions;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      switch (name) {
        case "commit", "rollback", "close" -> {
          if (!(name.equals("rollback") && args != null && args.length > 0)) {
            end();
          }
        }
        case "setAutoCommit" -> end();
        default -> {}
      }
      Object result = RecordingDataSource.invoke(target, method, args);
      if (result instanceof PreparedStatement statement && args != null) {
        return proxy(PreparedStatement.class, new StatementHandler(statement, (String) args[0]));
      }
      if (result instanceof Statement statement && !(result instanceof PreparedStatement)) {
        return proxy(Statement.class, new StatementHandler(statement, null));
      }
      return result;
    }

    synchronized void executed(List<Execution> executions) throws java.sql.SQLException {
      open.addAll(executions);
      if (target.getAutoCommit()) {
        end();
      }
    }

    synchronized void end() {
      if (!open.isEmpty()) {
        List<Execution> ended = open;
        open = new ArrayList<>();
        transactions.accept(ended);
      }
    }

    private final class StatementHandler implements InvocationHandler {
      private final Statement target;
      private final String sql;
      private Map<Integer, Object> binds = new TreeMap<>();
      private final List<Map<Integer, Object>> batch = new ArrayList<>();

      StatementHandler(Statement target, String sql) {
        this.target = target;
        this.sql = sql;
      }

      @Override
      public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.startsWith("set")
            && args != null
            && args.length >= 2
            && method.getParameterTypes()[0] == int.class) {
          binds.put((Integer) args[0], args[1]);
        } else if (name.equals("addBatch") && (args == null || args.length == 0)) {
          batch.add(binds);
          binds = new TreeMap<>(binds);
        } else if (name.equals("clearParameters")) {
          binds = new TreeMap<>();
        }
        Object result = RecordingDataSource.invoke(target, method, args);
        if (name.startsWith("execute")) {
          List<Execution> executions = new ArrayList<>();
          if (args != null && args.length > 0 && args[0] instanceof String text) {
            executions.add(new Execution(text, Map.of()));
          } else if (name.equals("executeBatch")) {
            batch.forEach(row -> executions.add(new Execution(sql, row)));
            batch.clear();
          } else {
            executions.add(
                new Execution(sql, java.util.Collections.unmodifiableMap(new TreeMap<>(binds))));
          }
          executed(executions);
        }
        return result;
      }
    }
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T)
        Proxy.newProxyInstance(
            RecordingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler);
  }
}
