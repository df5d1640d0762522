package dev.trestle.server;

import dev.trestle.TableService;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Table REST API over HTTP/1.1, path-style ({@code http://host:port/{account}/...}). Build with
 * {@link #builder(TableService)}, then {@link #start()}; {@link #close()} finishes requests in flight.
 */
public final class TrestleServer implements AutoCloseable {

  /** The storage emulator's well-known key for {@code devstoreaccount1}. */
  public static final String DEV_ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private TrestleServer(Builder builder) {}

  public static Builder builder(TableService tableService) {
    return new Builder(tableService);
  }

  /** Starts listening; returns once the port is bound. */
  public TrestleServer start() {
    throw new UnsupportedOperationException("server not built yet");
  }

  /** The bound port (useful with port 0). */
  public int port() {
    throw new UnsupportedOperationException("server not built yet");
  }

  /** The base URL of an account, e.g. {@code http://127.0.0.1:10002/devstoreaccount1}. */
  public String endpoint(String account) {
    throw new UnsupportedOperationException("server not built yet");
  }

  @Override
  public void close() {}

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
