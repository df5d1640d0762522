package dev.trestle.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * A DataSource that counts the JDBC calls that cost a round trip or change a connection's state
 * (statements executed, transaction control, isolation), to show how many a library operation
 * makes.
 */
final class JdbcCallCounter {
  private static final Set<String> COUNTED =
      Set.of(
          "getConnection",
          "prepareStatement",
          "createStatement",
          "prepareCall",
          "setAutoCommit",
          "commit",
          "rollback",
          "setTransactionIsolation",
          "getTransactionIsolation",
          "setSavepoint",
          "releaseSavepoint",
          "setReadOnly",
          "getMetaData",
          "execute",
          "executeQuery",
          "executeUpdate",
          "executeLargeUpdate",
          "executeBatch",
          "executeLargeBatch",
          "addBatch");

  private final DataSource target;
  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();

  JdbcCallCounter(DataSource target) {
    this.target = target;
  }

  DataSource dataSource() {
    return proxy(target, DataSource.class);
  }

  void reset() {
    calls.clear();
  }

  /** e.g. {@code getConnection 1, prepareStatement 2, executeQuery 1, commit 1}, per operation. */
  String perOperation(int operations) {
    return new TreeMap<>(calls)
        .entrySet().stream()
            .map(
                e ->
                    String.format(
                        Locale.ROOT,
                        "%s %s",
                        e.getKey(),
                        trim(e.getValue().sum() / (double) operations)))
            .collect(Collectors.joining(", "));
  }

  private static String trim(double value) {
    return value == Math.rint(value)
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.2f", value);
  }

  @SuppressWarnings("unchecked")
  private <T> T proxy(T target, Class<?> type) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    interfaces.add(type);
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      for (Class<?> i : c.getInterfaces()) {
        if (type.isAssignableFrom(i)) {
          interfaces.add(i);
        }
      }
    }
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (COUNTED.contains(method.getName())) {
            calls.computeIfAbsent(method.getName(), name -> new LongAdder()).increment();
          }
          Object result;
          try {
            result = method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (result instanceof Connection connection) {
            return proxy(connection, Connection.class);
          }
          if (result instanceof Statement statement) {
            return proxy(
                statement,
                method.getReturnType().isInterface() ? method.getReturnType() : Statement.class);
          }
          return result;
        };
    return (T)
        Proxy.newProxyInstance(
            getClass().getClassLoader(), interfaces.toArray(Class<?>[]::new), handler);
  }
}
