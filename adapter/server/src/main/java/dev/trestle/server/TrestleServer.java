package dev.trestle.server;

import dev.trestle.TableService;
import dev.trestle.server.auth.RequestAuthenticator;
import dev.trestle.server.internal.ProtocolErrorHandler;
import dev.trestle.server.internal.TableApiHandler;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Table REST API over HTTP/1.1, path-style ({@code http://host:port/{account}/...}). Build with
 * {@link #builder(TableService)}, then {@link #start()}; {@link #close()} finishes requests in flight.
 */
public final class TrestleServer implements AutoCloseable {

  /** The storage emulator's well-known key for {@code devstoreaccount1}. */
  public static final String DEV_ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /** Connections idle this long are closed; it also bounds how long a client may take to send headers. */
  private static final long IDLE_TIMEOUT_MS = 30_000;
  /** How long {@link #close()} waits for requests in flight. */
  private static final long STOP_TIMEOUT_MS = 15_000;
  private static final long SHUTDOWN_IDLE_TIMEOUT_MS = 100;
  private static final int MAX_HEADER_BYTES = 64 * 1024;

  private final String host;
  private final Server server;
  private final ServerConnector connector;
  private final GracefulHandler graceful;

  private TrestleServer(Builder builder) {
    this.host = builder.host;
    Map<String, List<String>> accountKeys = new LinkedHashMap<>(builder.accountKeys);
    if (accountKeys.isEmpty()) {
      accountKeys.put(TableService.DEFAULT_ACCOUNT, List.of(DEV_ACCOUNT_KEY));
    }
    TableService tables = builder.tableService;
    Clock clock = Clock.systemUTC();
    RequestAuthenticator authenticator = new RequestAuthenticator(accountKeys,
        (account, table) -> tables.forAccount(account).getAccessPolicies(table), clock, builder.allowAnonymous);

    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("trestle-http");
    // requests block on JDBC: run them on virtual threads so a slow database does not exhaust the pool
    threads.setVirtualThreadsExecutor(VirtualThreads.getDefaultVirtualThreadsExecutor());
    server = new Server(threads);
    server.setStopTimeout(STOP_TIMEOUT_MS);
    // what Jetty refuses itself (unparsable requests, requests during shutdown) still gets an Azure-style error
    server.setErrorHandler(new ProtocolErrorHandler(clock));

    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setSendDateHeader(true);
    http.setRequestHeaderSize(MAX_HEADER_BYTES);
    // entity keys may contain characters Jetty's default compliance calls ambiguous (%2F, %5C, ..); the
    // router decides what a path means
    http.setUriCompliance(UriCompliance.UNSAFE);
    connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(builder.host);
    connector.setPort(builder.port);
    connector.setIdleTimeout(IDLE_TIMEOUT_MS);
    // on close, idle keep-alive connections go quickly; requests in flight still finish (GracefulHandler)
    connector.setShutdownIdleTimeout(SHUTDOWN_IDLE_TIMEOUT_MS);
    server.addConnector(connector);

    Handler api = new TableApiHandler(tables, accountKeys.keySet(), authenticator, clock);
    graceful = new GracefulHandler();
    graceful.setHandler(builder.handlerWrapper.apply(api));
    server.setHandler(graceful);
  }

  public static Builder builder(TableService tableService) {
    return new Builder(tableService);
  }

  /** Starts listening; returns once the port is bound. */
  public TrestleServer start() {
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("Trestle could not start on " + host + ":" + connector.getPort()
          + ": " + e.getMessage(), e);
    }
    return this;
  }

  /** The bound port (useful with port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /** The base URL of an account, e.g. {@code http://127.0.0.1:10002/devstoreaccount1}. */
  public String endpoint(String account) {
    String shownHost = host.contains(":") ? "[" + host + "]" : host;
    return "http://" + shownHost + ":" + port() + "/" + account;
  }

  /**
   * Finishes requests in flight (waiting up to 15 s; new requests meanwhile get 503), then stops. The connector is
   * stopped only afterwards: Jetty shortens the idle timeout of every connection when the connector shuts down,
   * which would cut off a request still waiting for the database.
   */
  @Override
  public void close() {
    try {
      graceful.shutdown().get(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // stop anyway: the remaining requests get their connections closed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // a failed graceful phase still leaves the server to stop
    }
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Trestle did not stop cleanly: " + e.getMessage(), e);
    }
  }

  public static final class Builder {
    final TableService tableService;
    String host = "127.0.0.1";
    int port = 10002;
    final Map<String, List<String>> accountKeys = new LinkedHashMap<>();
    boolean allowAnonymous;
    java.util.function.UnaryOperator<org.eclipse.jetty.server.Handler> handlerWrapper = h -> h;

    private Builder(TableService tableService) {
      this.tableService = tableService;
    }

    public Builder host(String host) { this.host = host; return this; }

    /** 0 picks a free port. Default 10002, the emulator's table port. */
    public Builder port(int port) { this.port = port; return this; }

    /** Adds an account with its base64 keys (key1, key2). Without any, the dev account with its well-known key. */
    public Builder account(String name, String... base64Keys) { accountKeys.put(name, List.of(base64Keys)); return this; }

    /** Accept requests without credentials. Off by default. */
    public Builder allowAnonymous(boolean allowAnonymous) { this.allowAnonymous = allowAnonymous; return this; }

    /**
     * Wraps the Table API handler, e.g. to add health and metrics endpoints in front of it.
     * The wrapper sees every request first.
     */
    public Builder wrapHandler(java.util.function.UnaryOperator<org.eclipse.jetty.server.Handler> wrapper) {
      this.handlerWrapper = wrapper;
      return this;
    }

    public TrestleServer build() { return new TrestleServer(this); }
  }
}
