package dev.trestle.server.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A loopback TCP proxy in front of a database, which a test takes down and brings back as an outage
 * does: while it is down, connections are refused and every connection it carried is cut. Frozen,
 * it is a network partition instead: nothing passes, and nothing is refused or cut.
 */
public final class TcpProxy implements AutoCloseable {
  private final InetSocketAddress target;
  private final int port;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private ServerSocket listener;
  private final ReentrantLock gate = new ReentrantLock();
  private final Condition thawed = gate.newCondition();
  private boolean frozen;

  /**
   * Listens on a free loopback port and forwards every connection to {@code targetHost:targetPort}.
   */
  public TcpProxy(String targetHost, int targetPort) {
    this.target = new InetSocketAddress(targetHost, targetPort);
    this.port = listen(0);
  }

  public int port() {
    return port;
  }

  /** The database is gone: the port refuses connections and every open one is cut. */
  public synchronized void stop() {
    closeQuietly(listener);
    listener = null;
    sockets.forEach(TcpProxy::closeQuietly);
    sockets.clear();
  }

  /** The database is back, on the same port. */
  public synchronized void start() {
    if (listener == null) {
      listen(port);
    }
  }

  /** Nothing passes either way from now on, as when the network drops every packet. */
  public void freeze() {
    gate.lock();
    try {
      frozen = true;
    } finally {
      gate.unlock();
    }
  }

  /** The network is back: what was held up passes on. */
  public void thaw() {
    gate.lock();
    try {
      frozen = false;
      thawed.signalAll();
    } finally {
      gate.unlock();
    }
  }

  @Override
  public void close() {
    thaw();
    stop();
  }

  private void passWhenThawed() throws IOException {
    gate.lock();
    try {
      while (frozen) {
        thawed.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while frozen");
    } finally {
      gate.unlock();
    }
  }

  private synchronized int listen(int onPort) {
    try {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort));
      listener = socket;
      Thread.ofVirtual().name("tcp-proxy-accept").start(() -> accept(socket));
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("The proxy cannot listen on port " + onPort, e);
    }
  }

  private void accept(ServerSocket socket) {
    while (!socket.isClosed()) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException e) {
        return; // stopped
      }
      Socket server = new Socket();
      if (!register(socket, client, server)) {
        closeQuietly(client); // accepted as the proxy stopped: cut like the others
        return;
      }
      try {
        passWhenThawed();
        server.connect(target, 2000);
        Thread.ofVirtual().start(() -> pump(client, server));
        Thread.ofVirtual().start(() -> pump(server, client));
      } catch (IOException e) {
        closeQuietly(client); // the database refused: so does the proxy
        closeQuietly(server);
      }
    }
  }

  /**
   * Keeps the pair for {@link #stop()} to cut, unless the proxy stopped since it accepted the
   * connection.
   */
  private synchronized boolean register(ServerSocket acceptedBy, Socket client, Socket server) {
    if (listener != acceptedBy) {
      return false;
    }
    sockets.add(client);
    sockets.add(server);
    return true;
  }

  private void pump(Socket from, Socket to) {
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      byte[] buffer = new byte[16384];
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        passWhenThawed();
        out.write(buffer, 0, read);
      }
    } catch (IOException e) {
      // one side went away
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      sockets.remove(from);
      sockets.remove(to);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception ignored) {
      // already closed
    }
  }
}
