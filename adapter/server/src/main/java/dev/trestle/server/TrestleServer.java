package dev.trestle.server;

import dev.trestle.TableService;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.server.auth.internal.RequestAuthenticator;
import dev.trestle.server.events.RequestListener;
import dev.trestle.server.internal.TableApiHandler;
import dev.trestle.server.internal.http.BodyRateHandler;
import dev.trestle.server.internal.http.ProtocolErrorHandler;
import dev.trestle.server.internal.http.RequestEvents;
import dev.trestle.server.internal.http.RequestThreads;
import dev.trestle.server.internal.http.TableConnectionFactory;
import dev.trestle.server.internal.tls.TlsConnections;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Table REST API over HTTP/1.1, or HTTPS with a {@linkplain Builder#tls certificate}:
 * path-style ({@code http://host:port/{account}/...}) and host-style ({@code
 * https://{account}.table.suffix/...}) URLs at once. Build with {@link #builder(TableService)},
 * then {@link #start()}; {@link #close()} finishes requests in flight.
 */
public final class TrestleServer implements AutoCloseable {

  /** The storage emulator's well-known key for {@code devstoreaccount1}. */
  public static final String DEV_ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /** How long a request line and headers may take from the request's first byte. */
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);

  /** Bytes per second a request body must keep up once {@link #DEFAULT_BODY_RATE_GRACE} is over. */
  public static final long DEFAULT_MIN_BODY_RATE = 500;

  public static final Duration DEFAULT_BODY_RATE_GRACE = Duration.ofSeconds(5);

  /**
   * How long a server goes on applying CORS rules after another server sharing the database changed
   * them; see {@link Builder#settingsRefresh}.
   */
  public static final Duration DEFAULT_SETTINGS_REFRESH = Duration.ofSeconds(5);

  /** Connections served at once: far more than a pool of database connections can keep busy. */
  public static final int DEFAULT_MAX_CONNECTIONS = 2000;

  /**
   * Connections idle this long are closed, also mid-body; slow headers and bodies have their own
   * limits.
   */
  private static final long IDLE_TIMEOUT_MS = 30_000;

  /** How long {@link #close()} waits for requests in flight. */
  private static final long STOP_TIMEOUT_MS = 15_000;

  private static final long SHUTDOWN_IDLE_TIMEOUT_MS = 100;
  private static final int MAX_HEADER_BYTES = 64 * 1024;

  /**
   * Requests served on platform threads at once before further ones start on virtual threads: more
   * than the default database pool, so that requests waiting for a connection wait on them too.
   */
  private static final int PLATFORM_REQUEST_THREADS = 32;

  private final String host;
  private final ServerCertificate certificate;
  private final Server server;
  private final ServerConnector connector;
  private final GracefulHandler graceful;
  private final RequestThreads requestThreads;

  private TrestleServer(Builder builder) {
    this.host = builder.host;
    this.certificate = builder.certificate;
    Map<String, List<String>> accountKeys = new LinkedHashMap<>(builder.accountKeys);
    if (accountKeys.isEmpty()) {
      accountKeys.put(TableService.DEFAULT_ACCOUNT, List.of(DEV_ACCOUNT_KEY));
    }
    TableService tables = builder.tableService;
    Clock clock = Clock.systemUTC();
    RequestAuthenticator authenticator =
        new RequestAuthenticator(
            accountKeys,
            (account, table) -> tables.forAccount(account).getAccessPolicies(table),
            clock,
            builder.allowAnonymous,
            RequestAuthenticator.DEFAULT_CLOCK_SKEW,
            builder.tokens,
            builder.undatedSharedKey);

    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("trestle-http");
    // requests block on JDBC: a few platform threads serve them, and virtual threads take the rest,
    // so a slow database does not exhaust the pool
    requestThreads = new RequestThreads(PLATFORM_REQUEST_THREADS);
    threads.setVirtualThreadsExecutor(requestThreads);
    server = new Server(threads);
    server.setStopTimeout(STOP_TIMEOUT_MS);
    // what Jetty refuses itself (unparsable requests, requests during shutdown) still gets an
    // Azure-style error
    server.setErrorHandler(new ProtocolErrorHandler(clock));

    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setSendDateHeader(true);
    http.setRequestHeaderSize(MAX_HEADER_BYTES);
    // entity keys may contain characters Jetty's default compliance calls ambiguous (%2F, %5C, ..);
    // the
    // router decides what a path means
    http.setUriCompliance(UriCompliance.UNSAFE);
    // Jetty's idle timeout restarts with every byte: a header trickled byte by byte needs a
    // deadline of its own
    if (certificate != null) {
      http.addCustomizer(TlsConnections.secureRequests());
    }
    HttpConnectionFactory connections = new TableConnectionFactory(http, builder.headerTimeout);
    // with a certificate the port speaks HTTPS only, as Azure's and Azurite's do; keep-alive as in
    // plain HTTP/1.1
    connector =
        certificate == null
            ? new ServerConnector(server, connections)
            : new ServerConnector(
                server,
                TlsConnections.sslConnectionFactory(
                    certificate.identity(), connections.getProtocol()),
                connections);
    connector.setHost(builder.host);
    connector.setPort(builder.port);
    connector.setIdleTimeout(IDLE_TIMEOUT_MS);
    // on close, idle keep-alive connections go quickly; requests in flight still finish
    // (GracefulHandler)
    connector.setShutdownIdleTimeout(SHUTDOWN_IDLE_TIMEOUT_MS);
    server.addConnector(connector);
    if (builder.maxConnections > 0) {
      // beyond the cap the connector stops accepting: new connections wait in the backlog until
      // others close
      server.addBean(new ConnectionLimit(builder.maxConnections, server));
    }

    Handler api =
        new TableApiHandler(
            tables,
            accountKeys.keySet(),
            builder.hostStyleUrls,
            authenticator,
            clock,
            builder.skipApiVersionCheck,
            builder.settingsRefresh);
    if (!builder.listeners.isEmpty()) {
      api = new RequestEvents(api, builder.listeners);
    }
    Handler wrapped = builder.handlerWrapper.apply(api);
    graceful = new GracefulHandler();
    // Jetty 12.0 stores HttpConfiguration's minimum request data rate but never enforces it; this
    // handler does
    graceful.setHandler(
        builder.minBodyRate == 0
            ? wrapped
            : new BodyRateHandler(wrapped, builder.minBodyRate, builder.bodyRateGrace));
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
      throw new IllegalStateException(
          "Trestle could not start on " + host + ":" + connector.getPort() + ": " + e.getMessage(),
          e);
    }
    return this;
  }

  /** The bound port (useful with port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /**
   * The path-style base URL of an account, e.g. {@code http://127.0.0.1:10002/devstoreaccount1}, or
   * {@code https://...} with a certificate.
   */
  public String endpoint(String account) {
    String shownHost = host.contains(":") ? "[" + host + "]" : host;
    return scheme() + "://" + shownHost + ":" + port() + "/" + account;
  }

  /** {@code https} with a certificate, else {@code http}. */
  public String scheme() {
    return certificate == null ? "http" : "https";
  }

  /**
   * Finishes requests in flight (waiting up to 15 s; new requests meanwhile get 503), then stops.
   * The connector is stopped only afterwards: Jetty shortens the idle timeout of every connection
   * when the connector shuts down, which would cut off a request still waiting for the database.
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
    } finally {
      requestThreads.shutdown();
    }
  }

  public static final class Builder {
    final TableService tableService;
    String host = "127.0.0.1";
    int port = 10002;
    final Map<String, List<String>> accountKeys = new LinkedHashMap<>();
    boolean allowAnonymous;
    TokenAuthentication tokens;
    Duration headerTimeout = DEFAULT_HEADER_TIMEOUT;
    long minBodyRate = DEFAULT_MIN_BODY_RATE;
    Duration bodyRateGrace = DEFAULT_BODY_RATE_GRACE;
    int maxConnections = DEFAULT_MAX_CONNECTIONS;
    Duration settingsRefresh = DEFAULT_SETTINGS_REFRESH;
    ServerCertificate certificate;
    boolean hostStyleUrls = true;
    boolean skipApiVersionCheck;
    boolean undatedSharedKey;
    java.util.function.UnaryOperator<org.eclipse.jetty.server.Handler> handlerWrapper = h -> h;
    final List<RequestListener> listeners = new ArrayList<>();

    private Builder(TableService tableService) {
      this.tableService = tableService;
    }

    public Builder host(String host) {
      this.host = host;
      return this;
    }

    /** 0 picks a free port. Default 10002, the emulator's table port. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * Adds an account with its base64 keys (key1, key2). Without any, the dev account with its
     * well-known key.
     */
    public Builder account(String name, String... base64Keys) {
      accountKeys.put(name, List.of(base64Keys));
      return this;
    }

    /**
     * Serves HTTPS (only) with this certificate and key, e.g. {@code
     * ServerCertificate.fromPem(cert, key, null)}; null (the default) serves plain HTTP.
     */
    public Builder tls(ServerCertificate certificate) {
      this.certificate = certificate;
      return this;
    }

    /**
     * Whether a request whose host name starts with a served account's name ({@code
     * account.table.corp.example}, {@code account-secondary.table...}, {@code account.localhost})
     * is for that account, with the whole path as the resource, as the Azure SDKs address Azure. On
     * by default; path-style URLs ({@code host:port/account/...}) are served either way.
     */
    public Builder hostStyleUrls(boolean hostStyleUrls) {
      this.hostStyleUrls = hostStyleUrls;
      return this;
    }

    /**
     * Serves requests naming an {@code x-ms-version} after the newest Trestle knows ({@link
     * dev.trestle.model.TableLimits#NEWEST_API_VERSION}), as Azurite's {@code
     * --skipApiVersionCheck} does; off by default, when they get 400 {@code InvalidHeaderValue} as
     * from Azure. Malformed versions are refused either way.
     */
    public Builder skipApiVersionCheck(boolean skip) {
      this.skipApiVersionCheck = skip;
      return this;
    }

    /**
     * Accepts Shared Key and Shared Key Lite requests that carry neither {@code x-ms-date} nor
     * {@code Date}, checking their signature over an empty date line, as Azurite does; hand-written
     * clients and Azurite's own REST tests sign so. Off by default: Azure refuses them with 403
     * {@code AuthenticationFailed}. A date that is given is still checked against the clock.
     */
    public Builder undatedSharedKey(boolean accept) {
      this.undatedSharedKey = accept;
      return this;
    }

    /** Accept requests without credentials. Off by default. */
    public Builder allowAnonymous(boolean allowAnonymous) {
      this.allowAnonymous = allowAnonymous;
      return this;
    }

    /**
     * Accepts {@code Authorization: Bearer} tokens (Microsoft Entra ID style OAuth) as {@code
     * tokens} says; null (the default) refuses them.
     */
    public Builder tokens(TokenAuthentication tokens) {
      this.tokens = tokens;
      return this;
    }

    /**
     * How long a request line and headers may take from the request's first byte; a later request
     * is answered 408 {@code OperationTimedOut} and its connection closed. Default 10 s; zero turns
     * the limit off.
     */
    public Builder headerTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException(
            "headerTimeout must be zero (off) or positive, but was " + timeout);
      }
      this.headerTimeout = timeout;
      return this;
    }

    /**
     * Bytes per second a request body must keep up once its first 5 seconds are over; a body that
     * falls behind is answered 500 {@code OperationTimedOut}, as Azure answers a timed-out request,
     * and its connection closed. Default 500; 0 turns the limit off.
     */
    public Builder minBodyRate(long bytesPerSecond) {
      return minBodyRate(bytesPerSecond, bodyRateGrace);
    }

    /** {@link #minBodyRate(long)} with another grace period than 5 s. */
    public Builder minBodyRate(long bytesPerSecond, Duration grace) {
      if (bytesPerSecond < 0 || grace.isNegative()) {
        throw new IllegalArgumentException(
            "minBodyRate must be 0 (off) or more bytes per second with a grace period"
                + " of zero or more, but was "
                + bytesPerSecond
                + " after "
                + grace);
      }
      this.minBodyRate = bytesPerSecond;
      this.bodyRateGrace = grace;
      return this;
    }

    /**
     * Connections served at once; beyond it new connections wait in the operating system's backlog
     * until others close. Default 2000; 0 removes the cap.
     */
    public Builder maxConnections(int maxConnections) {
      if (maxConnections < 0) {
        throw new IllegalArgumentException(
            "maxConnections must be 0 (no cap) or more, but was " + maxConnections);
      }
      this.maxConnections = maxConnections;
      return this;
    }

    /**
     * The bound on what this server serves stale when several servers share one database: the CORS
     * rules of an account's service properties are read from the database at most this long ago (a
     * change made through this server applies at once). Everything else a request depends on
     * (tables, entities, stored access policies, declared indexes, service properties as Get
     * Service Properties answers them) is read from the database by the request itself. Default 5
     * s; zero reads the rules on every request with an {@code Origin}.
     */
    public Builder settingsRefresh(Duration refresh) {
      if (refresh.isNegative()) {
        throw new IllegalArgumentException(
            "settingsRefresh must be zero (read on every request) or positive, but was " + refresh);
      }
      this.settingsRefresh = refresh;
      return this;
    }

    /**
     * Adds a listener told about every request the Table API answers: its operation, status,
     * duration and request ids, as the router decided them (for metrics and access logs). Requests
     * answered by a {@linkplain #wrapHandler wrapper} itself, or refused by Jetty before any
     * handler, are not reported.
     */
    public Builder requestListener(RequestListener listener) {
      listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * Wraps the Table API handler, e.g. to add health and metrics endpoints in front of it. The
     * wrapper sees every request first.
     */
    public Builder wrapHandler(
        java.util.function.UnaryOperator<org.eclipse.jetty.server.Handler> wrapper) {
      this.handlerWrapper = wrapper;
      return this;
    }

    public TrestleServer build() {
      return new TrestleServer(this);
    }
  }
}
