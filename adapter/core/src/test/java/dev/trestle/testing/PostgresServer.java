package dev.trestle.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * Finds a PostgreSQL for tests: {@code TRESTLE_TEST_PG_URL}, else Testcontainers where Docker runs,
 * else an embedded server from Maven artifacts. Each JVM then works in a schema of its own, dropped
 * at exit; schemas left behind by killed runs are dropped after six hours.
 */
final class PostgresServer {
  static final String ENV_URL = "TRESTLE_TEST_PG_URL";
  private static final String SCHEMA_PREFIX = "trestle_t_";
  private static final long STALE_MILLIS = 6 * 3600_000L;

  private PostgresServer() {}

  interface Factory {
    TestDatabase create(String url, String user, String password, String schema);
  }

  private static Endpoint endpoint;

  /**
   * A new schema on the server, which this JVM finds (or starts) once for all its PostgreSQL test
   * databases.
   */
  static TestDatabase startDatabase(Factory factory) {
    Endpoint server = sharedEndpoint();
    String schema =
        SCHEMA_PREFIX
            + System.currentTimeMillis()
            + "_"
            + Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE), 36);
    try (Connection admin = server.connect();
        Statement statement = admin.createStatement()) {
      dropStaleSchemas(admin);
      statement.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot prepare a schema on " + server.url() + ": " + e.getMessage(), e);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try (Connection admin = server.connect();
                      Statement statement = admin.createStatement()) {
                    statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                  } catch (SQLException ignored) {
                    // the next run drops it once it is stale
                  }
                }));
    return factory.create(server.url(), server.user(), server.password(), schema);
  }

  /**
   * Where the server is; the URL may carry the user as a parameter (user and password are then
   * null).
   */
  record Endpoint(String url, String user, String password) {
    Connection connect() throws SQLException {
      Properties properties = new Properties();
      if (user != null) {
        properties.setProperty("user", user);
      }
      if (password != null) {
        properties.setProperty("password", password);
      }
      return DriverManager.getConnection(url, properties);
    }
  }

  /**
   * A database of its own on the test server, created when missing and migrated, for tests whose
   * connections cannot carry a schema (behind a transaction pooler, the search path is session
   * state); returns its endpoint with the database name replaced.
   */
  static Endpoint dedicatedDatabase(String name) {
    Endpoint server = sharedEndpoint();
    try (Connection admin = server.connect();
        Statement statement = admin.createStatement();
        ResultSet exists =
            admin
                .createStatement()
                .executeQuery("select 1 from pg_database where datname = '" + name + "'")) {
      if (!exists.next()) {
        statement.execute("CREATE DATABASE " + name);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot create database " + name + " on " + server.url() + ": " + e.getMessage(), e);
    }
    return new Endpoint(
        server.url().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + name),
        server.user(),
        server.password());
  }

  static synchronized Endpoint sharedEndpoint() {
    if (endpoint == null) {
      endpoint = endpoint();
    }
    return endpoint;
  }

  private static Endpoint endpoint() {
    String url = System.getenv(ENV_URL);
    if (url != null && !url.isBlank()) {
      return new Endpoint(url, null, null);
    }
    if (dockerAvailable()) {
      PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:16-alpine");
      container.start();
      Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
      return new Endpoint(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }
    try {
      EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      embedded.close();
                    } catch (IOException ignored) {
                      // the process ends anyway
                    }
                  }));
      return new Endpoint(embedded.getJdbcUrl("postgres", "postgres"), null, null);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Set "
              + ENV_URL
              + ": no Docker and the embedded PostgreSQL did not start ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  private static boolean dockerAvailable() {
    // Asking Testcontainers costs seconds and logs errors where no Docker engine runs; look for one
    // first.
    boolean engineConfigured =
        System.getenv("DOCKER_HOST") != null
            || java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"))
            || java.nio.file.Files.exists(
                java.nio.file.Path.of(
                    System.getProperty("user.home"), ".docker", "run", "docker.sock"))
            || java.nio.file.Files.exists(
                java.nio.file.Path.of(
                    System.getProperty("user.home"), ".testcontainers.properties"));
    if (!engineConfigured) {
      return false;
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  private static void dropStaleSchemas(Connection admin) throws SQLException {
    List<String> stale = new ArrayList<>();
    try (Statement statement = admin.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE '" + SCHEMA_PREFIX + "%'")) {
      while (rows.next()) {
        String name = rows.getString(1);
        String[] parts = name.substring(SCHEMA_PREFIX.length()).split("_");
        try {
          if (System.currentTimeMillis() - Long.parseLong(parts[0]) > STALE_MILLIS) {
            stale.add(name);
          }
        } catch (NumberFormatException ignored) {
          // not one of ours
        }
      }
    }
    for (String name : stale) {
      try (Statement statement = admin.createStatement()) {
        statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
      } catch (SQLException ignored) {
        // another run is dropping it
      }
    }
  }
}
