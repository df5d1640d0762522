package dev.trestle.server.support;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.PgBouncer;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * Several servers, each with a connection pool of its own, serving one account of one database, as
 * stateless servers behind a load balancer are deployed. On PostgreSQL each cluster gets a schema
 * of its own (dropped on close); behind PgBouncer, whose transaction mode keeps no session state
 * such as a schema, a database of its own shared by the clusters of the run, each with a fresh
 * account.
 */
public final class ServerCluster implements AutoCloseable {
  /** Where the cluster's database is. */
  public enum Deployment {
    H2,
    POSTGRESQL,
    POSTGRESQL_PGBOUNCER
  }

  private static final String BOUNCER_DATABASE = "trestle_multiserver_test";
  private static PgBouncer bouncer;

  private final String account = TestDatabase.newAccount();
  private final List<TableService> services = new ArrayList<>();
  private final List<ServerFixture> servers = new ArrayList<>();
  private final String adminUrl;
  private final String user;
  private final String password;
  private final String schema;

  private ServerCluster(
      Deployment deployment,
      int size,
      int poolSize,
      UnaryOperator<TrestleServer.Builder> settings) {
    TestDatabase database =
        TestDatabase.get(
            deployment == Deployment.H2 ? TestDatabase.Kind.H2 : TestDatabase.Kind.POSTGRESQL);
    String serverUrl;
    switch (deployment) {
      case H2 -> {
        schema = null;
        user = database.username();
        password = database.password();
        adminUrl = database.jdbcUrl();
        serverUrl = adminUrl;
      }
      case POSTGRESQL -> {
        schema =
            "trestle_ms_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36);
        user = database.username();
        password = database.password();
        adminUrl = withParameter(database.jdbcUrl(), "currentSchema=" + schema);
        serverUrl = adminUrl;
        execute(database.jdbcUrl(), "CREATE SCHEMA " + schema);
        migrate();
      }
      case POSTGRESQL_PGBOUNCER -> {
        schema = null;
        PgBouncer pgBouncer = bouncer();
        user = pgBouncer.user();
        password = pgBouncer.password();
        adminUrl = pgBouncer.directUrl();
        serverUrl = pgBouncer.jdbcUrl();
      }
      default -> throw new IllegalArgumentException(deployment.name());
    }
    for (int i = 0; i < size; i++) {
      TableService service =
          TableService.builder()
              .jdbcUrl(serverUrl)
              .credentials(user, password)
              .maximumPoolSize(poolSize)
              .account(account)
              .migrate(false)
              .build();
      services.add(service);
      servers.add(
          new ServerFixture(
              account,
              settings.apply(
                  TrestleServer.builder(service)
                      .port(0)
                      .account(account, TrestleServer.DEV_ACCOUNT_KEY))));
    }
  }

  /** {@code size} servers with pools of {@code poolSize} connections. */
  public static ServerCluster start(Deployment deployment, int size, int poolSize) {
    return new ServerCluster(deployment, size, poolSize, builder -> builder);
  }

  /** The same, with server settings of the test's. */
  public static ServerCluster start(
      Deployment deployment,
      int size,
      int poolSize,
      UnaryOperator<TrestleServer.Builder> settings) {
    return new ServerCluster(deployment, size, poolSize, settings);
  }

  private static synchronized PgBouncer bouncer() {
    if (bouncer == null) {
      try {
        PgBouncer started = PgBouncer.inFrontOfTestPostgres(BOUNCER_DATABASE, 4);
        TableService.builder()
            .jdbcUrl(started.directUrl())
            .credentials(started.user(), started.password())
            .migrate(true)
            .build()
            .close();
        Runtime.getRuntime().addShutdownHook(new Thread(started::close));
        bouncer = started;
      } catch (java.io.IOException e) {
        throw new IllegalStateException("Cannot start PgBouncer: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return bouncer;
  }

  private void migrate() {
    TableService.builder()
        .jdbcUrl(adminUrl)
        .credentials(user, password)
        .maximumPoolSize(2)
        .migrate(true)
        .build()
        .close();
  }

  private static String withParameter(String url, String parameter) {
    return url + (url.contains("?") ? "&" : "?") + parameter;
  }

  public String account() {
    return account;
  }

  public int size() {
    return servers.size();
  }

  public ServerFixture server(int index) {
    return servers.get(Math.floorMod(index, servers.size()));
  }

  public TableService service(int index) {
    return services.get(Math.floorMod(index, services.size()));
  }

  /**
   * Runs SQL on the cluster's database directly (not through a server or a pooler), in its schema.
   */
  public int execute(String sql) {
    return execute(adminUrl, sql);
  }

  /** The number a query on the cluster's database answers, read directly. */
  public long count(String sql) {
    try (Connection connection = DriverManager.getConnection(adminUrl, user, password);
        Statement statement = connection.createStatement();
        java.sql.ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  private int execute(String url, String sql) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement()) {
      return statement.executeUpdate(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    servers.forEach(ServerFixture::close);
    services.forEach(TableService::close);
    if (schema != null) {
      execute(adminUrl, "DROP SCHEMA " + schema + " CASCADE");
    }
  }
}
