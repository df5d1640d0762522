package dev.trestle.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableService;
import dev.trestle.cli.config.Account;
import dev.trestle.cli.config.ServerSettings;
import dev.trestle.cli.config.Setting;
import dev.trestle.cli.database.DatabaseConnector;
import dev.trestle.cli.ops.BuildInfo;
import dev.trestle.cli.ops.HealthCheck;
import dev.trestle.cli.ops.OperationsEndpoints;
import dev.trestle.cli.ops.OperationsHandler;
import dev.trestle.cli.ops.OperationsServer;
import dev.trestle.cli.ops.RequestLog;
import dev.trestle.cli.ops.RequestMetrics;
import dev.trestle.server.TrestleServer;
import dev.trestle.store.H2IndexRepair;
import dev.trestle.store.SchemaMigrator;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Trestle: the pool, the table service over it and the HTTP server with health and
 * metrics, those on an operations port of their own when one is set. {@link #close()} stops them in
 * reverse order, letting requests in flight finish first.
 */
public final class ServerRuntime implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ServerRuntime.class);

  private final ServerSettings settings;
  private final HikariDataSource dataSource;
  private final TableService tableService;
  private final TrestleServer server;

  /** Null when {@code /health} and {@code /metrics} are served on the API port. */
  private final OperationsServer operations;

  private final JvmGcMetrics gcMetrics;

  private ServerRuntime(
      ServerSettings settings,
      HikariDataSource dataSource,
      TableService tableService,
      TrestleServer server,
      OperationsServer operations,
      JvmGcMetrics gcMetrics) {
    this.settings = settings;
    this.dataSource = dataSource;
    this.tableService = tableService;
    this.server = server;
    this.operations = operations;
    this.gcMetrics = gcMetrics;
  }

  /** Connects (waiting for the database as configured), applies the schema and starts listening. */
  public static ServerRuntime start(ServerSettings settings) {
    checkAddress(settings.host(), settings.port(), Setting.HOST, Setting.PORT);
    settings
        .operations()
        .ifPresent(ops -> checkAddress(ops.host(), ops.port(), Setting.OPS_HOST, Setting.OPS_PORT));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    JvmGcMetrics gcMetrics = new JvmGcMetrics();
    gcMetrics.bindTo(registry);

    log.info("Opening database {}", settings.database().redactedUrl());
    // before the pool opens the file: H2 marks it clean again only when it closes it
    H2IndexRepair repair = H2IndexRepair.beforeOpening(settings.database().jdbcUrl());
    HikariDataSource dataSource = DatabaseConnector.open(settings.database(), registry);
    TableService tableService = null;
    try {
      tableService = openTables(dataSource, settings, repair);
      log.info("Schema version {}", SchemaMigrator.version(dataSource).orElse("unknown"));
      BuildInfo build = new BuildInfo(VersionInfo.version(), databaseKind(dataSource));
      build.bindTo(registry);
      HealthCheck health = new HealthCheck(tableService, build);
      health.warmUp();
      TrestleServer server = startServer(settings, tableService, health, registry);
      OperationsServer operations;
      try {
        operations = startOperations(settings, health, registry);
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
      return new ServerRuntime(settings, dataSource, tableService, server, operations, gcMetrics);
    } catch (RuntimeException e) {
      if (tableService != null) {
        tableService.close();
      }
      dataSource.close();
      gcMetrics.close();
      throw e;
    }
  }

  /** The database product as its JDBC driver names it, e.g. {@code H2} or {@code PostgreSQL}. */
  private static String databaseKind(HikariDataSource dataSource) {
    try (java.sql.Connection connection = dataSource.getConnection()) {
      return connection.getMetaData().getDatabaseProductName();
    } catch (java.sql.SQLException e) {
      return "unknown";
    }
  }

  private static TableService openTables(
      HikariDataSource dataSource, ServerSettings settings, H2IndexRepair repair) {
    TableService tables = null;
    try {
      tables =
          TableService.builder()
              .dataSource(dataSource)
              .migrate(true)
              .scalarStore(settings.database().scalarStore())
              .extensions(settings.extensions())
              .relaxedTransactions(settings.relaxedTransactions().orElse(null))
              .build();
      repair.afterMigrations(dataSource);
      return tables;
    } catch (RuntimeException e) {
      if (tables != null) {
        tables.close();
      }
      throw new CliException(
          ExitCode.DATABASE,
          "Cannot prepare the database "
              + settings.database().redactedUrl()
              + ": "
              + Trestle.oneLine(String.valueOf(e.getMessage())),
          e);
    }
  }

  private static TrestleServer startServer(
      ServerSettings settings,
      TableService tableService,
      HealthCheck health,
      PrometheusMeterRegistry registry) {
    TrestleServer.Builder builder =
        TrestleServer.builder(tableService)
            .host(settings.host())
            .port(settings.port())
            .allowAnonymous(settings.allowAnonymous())
            .headerTimeout(settings.limits().headerTimeout())
            .minBodyRate(settings.limits().minBodyRate())
            .maxConnections(settings.limits().maxConnections())
            .settingsRefresh(settings.settingsRefresh())
            .undatedSharedKey(settings.leniency().undatedSharedKey())
            .skipApiVersionCheck(settings.leniency().skipApiVersionCheck())
            .requestListener(new RequestMetrics(registry))
            .requestListener(new RequestLog());
    settings.tokens().ifPresent(builder::tokens);
    settings.endpoint().certificate().ifPresent(builder::tls);
    builder.hostStyleUrls(settings.endpoint().hostStyleUrls());
    if (settings.operations().isEmpty()) {
      builder.wrapHandler(api -> new OperationsHandler(api, health, registry));
    }
    for (Account account : settings.accounts()) {
      builder.account(account.name(), account.keys().toArray(String[]::new));
    }
    try {
      return builder.build().start();
    } catch (RuntimeException e) {
      if (hasCause(e, BindException.class)) {
        throw portInUse(settings.host(), settings.port(), Setting.PORT);
      }
      throw e;
    }
  }

  /**
   * The operations port, or null when {@code /health} and {@code /metrics} stay on the API port.
   */
  private static OperationsServer startOperations(
      ServerSettings settings, HealthCheck health, PrometheusMeterRegistry registry) {
    ServerSettings.OperationsAddress address = settings.operations().orElse(null);
    if (address == null) {
      return null;
    }
    try {
      return OperationsServer.start(
          address.host(), address.port(), new OperationsEndpoints(health, registry));
    } catch (RuntimeException e) {
      if (hasCause(e, BindException.class)) {
        throw portInUse(address.host(), address.port(), Setting.OPS_PORT);
      }
      throw e;
    }
  }

  /**
   * Fails before the database work when the port is taken or the host is not an address of this
   * machine.
   */
  static void checkAddress(String host, int port, Setting hostSetting, Setting portSetting) {
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new CliException(
          ExitCode.USAGE,
          hostSetting.flag() + " '" + host + "' is not a known host name or address.");
    }
    if (port == 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(address, port));
    } catch (BindException e) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("in use")) {
        throw portInUse(host, port, portSetting);
      }
      throw new CliException(
          ExitCode.PORT,
          "Cannot listen on "
              + host
              + ":"
              + port
              + ": "
              + message
              + ". Is "
              + hostSetting.flag()
              + " an address of this machine?");
    } catch (IOException e) {
      throw new CliException(
          ExitCode.PORT, "Cannot listen on " + host + ":" + port + ": " + e.getMessage() + ".");
    }
  }

  private static CliException portInUse(String host, int port, Setting portSetting) {
    return new CliException(
        ExitCode.PORT,
        "Port "
            + port
            + " on "
            + host
            + " is already in use (another trestle or"
            + " Azurite?). Stop it, or choose another with "
            + portSetting.flag()
            + " or "
            + portSetting.environmentVariable()
            + ".");
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  public int port() {
    return server.port();
  }

  /**
   * The Table endpoint of an account, as clients on this machine should use it: a server listening
   * on all interfaces is reached through the loopback address.
   */
  public String endpoint(String account) {
    String endpoint = server.endpoint(account);
    endpoint =
        switch (settings.host()) {
          case "0.0.0.0" -> endpoint.replaceFirst("//0\\.0\\.0\\.0:", "//127.0.0.1:");
          case "::", "[::]" -> endpoint.replaceFirst("//\\[::]:", "//[::1]:");
          default -> endpoint;
        };
    // over HTTPS the client checks the certificate's names: a loopback address the certificate
    // does not name is shown as localhost when the certificate names that
    var names = settings.endpoint().certificate().map(c -> c.names()).orElse(java.util.List.of());
    if (endpoint.startsWith("https://127.0.0.1:")
        && !names.contains("127.0.0.1")
        && names.contains("localhost")) {
      endpoint = endpoint.replaceFirst("//127\\.0\\.0\\.1:", "//localhost:");
    }
    return endpoint;
  }

  /**
   * The API's root URL, where {@code /health} and {@code /metrics} live unless there is an
   * operations port.
   */
  public String rootUrl() {
    String endpoint = endpoint(primaryAccount().name());
    return endpoint.substring(0, endpoint.length() - primaryAccount().name().length() - 1);
  }

  /**
   * Where {@code /health} and {@code /metrics} live: the operations port's root URL, else {@link
   * #rootUrl()}.
   */
  public String operationsUrl() {
    if (operations == null) {
      return rootUrl();
    }
    String host = settings.operations().orElseThrow().host();
    // as endpoint(): a port listening on all interfaces is reached through the loopback address
    String reachable =
        switch (host) {
          case "0.0.0.0" -> "127.0.0.1";
          case "::", "[::]" -> "::1";
          default -> host;
        };
    return "http://"
        + (reachable.contains(":") && !reachable.startsWith("[")
            ? "[" + reachable + "]"
            : reachable)
        + ":"
        + operations.port();
  }

  /** The account the banner shows: the first configured one, or the development account. */
  public Account primaryAccount() {
    return settings.accounts().isEmpty()
        ? new Account(Account.DEV_ACCOUNT, java.util.List.of(TrestleServer.DEV_ACCOUNT_KEY))
        : settings.accounts().getFirst();
  }

  public ServerSettings settings() {
    return settings;
  }

  public TableService tableService() {
    return tableService;
  }

  @Override
  public void close() {
    log.info("Stopping: finishing requests in flight");
    try {
      try {
        // health goes first, so that a load balancer stops sending while requests in flight finish
        if (operations != null) {
          operations.close();
        }
      } finally {
        server.close();
      }
    } finally {
      tableService.close();
      dataSource.close();
      gcMetrics.close();
    }
    log.info("Stopped");
  }
}
