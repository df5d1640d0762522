package dev.trestle.cli;

import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * JDBC URLs and flags that point the CLI at a test database, or at an empty one of the same kind.
 */
final class CliDatabases {
  private CliDatabases() {}

  /**
   * The flags for the test database itself (on PostgreSQL, its schema as the connection's current
   * schema).
   */
  static List<String> flags(TestDatabase db) {
    String url =
        db.kind() == TestDatabase.Kind.H2 ? db.jdbcUrl() : withSchema(db.jdbcUrl(), db.schema());
    return flags(db, url);
  }

  /**
   * An empty database of the same kind: a new in-memory H2 database, or a new PostgreSQL schema
   * dropped on close.
   */
  record Empty(TestDatabase db, String url, String schema) implements AutoCloseable {
    List<String> flags() {
      return CliDatabases.flags(db, url);
    }

    @Override
    public void close() throws SQLException {
      if (schema != null) {
        try (Connection connection = db.dataSource().getConnection();
            Statement statement = connection.createStatement()) {
          statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
      }
    }
  }

  static Empty empty(TestDatabase db) throws SQLException {
    if (db.kind() == TestDatabase.Kind.H2) {
      return new Empty(db, "jdbc:h2:mem:cli-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", null);
    }
    // the prefix lets the test extension drop schemas that a killed run left behind
    String schema =
        "trestle_t_"
            + System.currentTimeMillis()
            + "_cli"
            + Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE), 36);
    try (Connection connection = db.dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + schema);
    }
    return new Empty(db, withSchema(db.jdbcUrl(), schema), schema);
  }

  private static List<String> flags(TestDatabase db, String url) {
    List<String> flags = new ArrayList<>(List.of("--db", url, "--db-wait", "0"));
    if (db.username() != null) {
      flags.addAll(List.of("--db-user", db.username()));
    }
    if (db.password() != null) {
      flags.addAll(List.of("--db-password", db.password()));
    }
    return flags;
  }

  private static String withSchema(String url, String schema) {
    return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  static String[] args(List<String> first, List<String> flags, String... rest) {
    List<String> all = new ArrayList<>(first);
    all.addAll(flags);
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }
}
