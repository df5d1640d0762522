package dev.trestle.cli.ops;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@code /health} and {@code /metrics} on an address of their own (an operations port), e.g.
 * loopback or a management network while the Table API listens on every interface. A server apart
 * from the API's, so that a probe still gets in when the API's connections are at their cap.
 */
public final class OperationsServer implements AutoCloseable {
  private static final long IDLE_TIMEOUT_MS = 10_000;

  private final Server server;
  private final ServerConnector connector;

  private OperationsServer(String host, int port, Handler endpoints) {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("trestle-ops");
    // the health check blocks for up to half a second: on virtual threads, probes never queue for a
    // pool thread
    threads.setVirtualThreadsExecutor(VirtualThreads.getDefaultVirtualThreadsExecutor());
    server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(IDLE_TIMEOUT_MS);
    server.addConnector(connector);
    server.setHandler(endpoints);
  }

  /**
   * Starts listening; a port that is taken surfaces as the {@link java.net.BindException} in the
   * cause.
   */
  public static OperationsServer start(String host, int port, Handler endpoints) {
    OperationsServer ops = new OperationsServer(host, port, endpoints);
    try {
      ops.server.start();
    } catch (Exception e) {
      ops.close();
      throw new IllegalStateException(
          "The operations port could not start on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    return ops;
  }

  /** The bound port (useful with port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException(
          "The operations port did not stop cleanly: " + e.getMessage(), e);
    }
  }
}
