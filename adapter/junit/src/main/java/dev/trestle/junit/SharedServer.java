package dev.trestle.junit;

import dev.trestle.TableInfo;
import dev.trestle.TableService;
import dev.trestle.TableServiceBuilder;
import dev.trestle.server.TrestleServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running server with its database, shared by the tests whose settings are equal and closed
 * when the test run ends (JUnit closes it with the root context's store).
 */
final class SharedServer implements ExtensionContext.Store.CloseableResource {
  private static final Logger LOG = LoggerFactory.getLogger(TrestleExtension.class);

  private final ServerSettings settings;
  private final String ownedH2Url;
  private final TableService tables;
  private final TrestleServer server;
  private final Map<Class<?>, Object> sdkClients = new ConcurrentHashMap<>();
  private final DefaultServiceProperties defaultProperties = new DefaultServiceProperties();

  /** Per account, the stored service properties as the last reset left them. */
  private final Map<String, String> propertiesAfterReset = new ConcurrentHashMap<>();

  private SharedServer(ServerSettings settings) {
    long started = System.nanoTime();
    this.settings = settings;
    this.ownedH2Url = settings.inMemory() ? "jdbc:h2:mem:trestle-junit-" + UUID.randomUUID() : null;
    TableServiceBuilder builder = TableService.builder().account(settings.defaultAccount());
    if (settings.dataSource() != null) {
      builder.dataSource(settings.dataSource());
    } else {
      builder
          .jdbcUrl(ownedH2Url != null ? ownedH2Url + ";DB_CLOSE_DELAY=-1" : settings.jdbcUrl())
          .credentials(settings.username(), settings.password());
    }
    this.tables = builder.build();
    try {
      TrestleServer.Builder serverBuilder =
          TrestleServer.builder(tables).host("127.0.0.1").port(settings.port());
      settings.accounts().forEach(serverBuilder::account);
      this.server = serverBuilder.build().start();
    } catch (RuntimeException e) {
      tables.close();
      throw e;
    }
    LOG.info(
        "Trestle for tests serves {} on {} (started in {} ms)",
        endpoint(defaultAccount()),
        settings.describeDatabase(),
        (System.nanoTime() - started) / 1_000_000);
  }

  static SharedServer start(ServerSettings settings) {
    return new SharedServer(settings);
  }

  String defaultAccount() {
    return settings.defaultAccount();
  }

  /** The account's key; refuses an account the server does not serve. */
  String accountKey(String account) {
    String key = settings.accounts().get(account);
    if (key == null) {
      throw new IllegalArgumentException(
          "This Trestle serves the accounts "
              + settings.accounts().keySet()
              + ", not '"
              + account
              + "'.");
    }
    return key;
  }

  int port() {
    return server.port();
  }

  String endpoint(String account) {
    accountKey(account);
    return server.endpoint(account);
  }

  String connectionString(String account) {
    return "DefaultEndpointsProtocol=http;AccountName="
        + account
        + ";AccountKey="
        + accountKey(account)
        + ";TableEndpoint="
        + endpoint(account)
        + ";";
  }

  /** The library on the same database; closing it leaves the shared pool open. */
  TableService tableService(String account) {
    accountKey(account);
    return tables.forAccount(account);
  }

  /** One client per type for the default account, made on first use and shared (thread-safe). */
  Object sdkClient(Class<?> type) {
    return sdkClients.computeIfAbsent(
        type, t -> AzureSdkClients.create(t, connectionString(defaultAccount())));
  }

  /** Deletes every table of every account and restores default service properties. */
  synchronized void reset() {
    for (String account : settings.accounts().keySet()) {
      TableService service = tables.forAccount(account);
      List<String> names = service.listTables().stream().map(TableInfo::name).toList();
      for (String name : names) {
        service.deleteTable(name);
      }
      String stored = service.getServiceProperties().orElse(null);
      if (stored != null && !stored.equals(propertiesAfterReset.get(account))) {
        defaultProperties.restore(endpoint(account), account, accountKey(account));
        service.getServiceProperties().ifPresent(now -> propertiesAfterReset.put(account, now));
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      tables.close();
      if (ownedH2Url != null) {
        dropInMemoryDatabase();
      }
    }
  }

  private void dropInMemoryDatabase() {
    try (Connection connection = DriverManager.getConnection(ownedH2Url);
        Statement statement = connection.createStatement()) {
      statement.execute("SHUTDOWN");
    } catch (SQLException e) {
      LOG.debug("Could not drop the in-memory database {}", ownedH2Url, e);
    }
  }
}
