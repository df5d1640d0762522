package dev.trestle.server.support;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A running server on a free loopback port over one test database, with SDK and raw clients for it.
 */
public final class ServerFixture implements AutoCloseable {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final String account;
  private final TrestleServer server;
  private final TableServiceClient sdk;
  private final RawClient raw;

  /** Serves the service's own account (each test gets a fresh one) with the development key. */
  public ServerFixture(TableService tables) {
    this(
        tables.accountName(),
        TrestleServer.builder(tables)
            .port(0)
            .account(tables.accountName(), TrestleServer.DEV_ACCOUNT_KEY));
  }

  public ServerFixture(String account, TrestleServer.Builder builder) {
    this.account = account;
    this.server = builder.build().start();
    this.sdk =
        new TableServiceClientBuilder()
            .endpoint(server.endpoint(account))
            .credential(new AzureNamedKeyCredential(account, TrestleServer.DEV_ACCOUNT_KEY))
            .buildClient();
    this.raw = new RawClient(server.endpoint(account), account, TrestleServer.DEV_ACCOUNT_KEY);
  }

  public TrestleServer server() {
    return server;
  }

  public TableServiceClient sdk() {
    return sdk;
  }

  public RawClient raw() {
    return raw;
  }

  public String endpoint() {
    return server.endpoint(account);
  }

  public String account() {
    return account;
  }

  /** Creates a table with a name no other test (or concurrent run) uses. */
  public TableClient newTable(String prefix) {
    String name = uniqueName(prefix);
    sdk.createTable(name);
    return sdk.getTableClient(name);
  }

  public static String uniqueName(String prefix) {
    return prefix + Long.toString(System.nanoTime(), 36) + SEQUENCE.incrementAndGet();
  }

  @Override
  public void close() {
    server.close();
  }
}
