package dev.trestle.junit;

import dev.trestle.TableService;

/**
 * The running Trestle server of a test, injected as a parameter by {@link TrestleTest} or {@link
 * TrestleExtension}: where it listens, how to connect, the embedded library on the same data, and
 * {@link #reset()}. Shared by every test with the same settings, and thread-safe.
 */
public final class Trestle {
  private final SharedServer server;

  Trestle(SharedServer server) {
    this.server = server;
  }

  /**
   * The connection string of the default account ({@code devstoreaccount1} unless configured), for
   * any Azure SDK: {@code DefaultEndpointsProtocol=http;AccountName=...;AccountKey=...;
   * TableEndpoint=http://127.0.0.1:PORT/ACCOUNT;}.
   */
  public String connectionString() {
    return connectionString(accountName());
  }

  /**
   * The connection string of another account this server serves.
   *
   * @throws IllegalArgumentException when the server does not serve that account
   */
  public String connectionString(String accountName) {
    return server.connectionString(accountName);
  }

  /** The default account's table endpoint, e.g. {@code http://127.0.0.1:41234/devstoreaccount1}. */
  public String endpoint() {
    return endpoint(accountName());
  }

  /**
   * Another account's table endpoint.
   *
   * @throws IllegalArgumentException when the server does not serve that account
   */
  public String endpoint(String accountName) {
    return server.endpoint(accountName);
  }

  /** The default account's name: {@code devstoreaccount1} unless configured. */
  public String accountName() {
    return server.defaultAccount();
  }

  /** The default account's base64 key: the storage emulator's well-known key unless configured. */
  public String accountKey() {
    return server.accountKey(accountName());
  }

  /** The port the server listens on, on 127.0.0.1. */
  public int port() {
    return server.port();
  }

  /**
   * The embedded library on the server's database, for the default account: seed or check data
   * without HTTP. Owned by the extension; closing it changes nothing.
   */
  public TableService tableService() {
    return server.tableService(accountName());
  }

  /**
   * Empties the server now: deletes every table of every account it serves, with their entities and
   * access policies, and restores the default service properties. Other test classes sharing the
   * server do not run meanwhile (see {@link TrestleTest#LOCK}).
   */
  public void reset() {
    server.reset();
  }

  /** The extension's Azure SDK client of this type (one per server, shared). */
  Object sdkClient(Class<?> type) {
    return server.sdkClient(type);
  }

  @Override
  public String toString() {
    return "Trestle[" + endpoint() + "]";
  }
}
