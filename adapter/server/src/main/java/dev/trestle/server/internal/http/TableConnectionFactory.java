package dev.trestle.server.internal.http;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.IdleTimeout;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.NanoTime;

/**
 * HTTP/1.1 connections as the Table API needs them. Their request line and headers must arrive
 * within a deadline (unless it is zero), counted from the request's first byte: Jetty 12.0 has no
 * such limit, its idle timeout restarts with every byte, so a client trickling a header one byte a
 * second held a connection for as long as it liked. A request that misses the deadline is answered
 * 408 through the server's error handler, whether its client keeps trickling or has gone quiet. And
 * a path with an escape Jetty's URI parser refuses reaches the router instead ({@link
 * RouterJudgedTargets}).
 */
public final class TableConnectionFactory extends HttpConnectionFactory {
  private final Duration timeout;

  /** A zero {@code headerTimeout} sets no deadline. */
  public TableConnectionFactory(HttpConfiguration configuration, Duration headerTimeout) {
    super(configuration);
    if (headerTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "the header timeout must be zero (none) or positive, but was " + headerTimeout);
    }
    this.timeout = headerTimeout;
  }

  @Override
  public Connection newConnection(Connector connector, EndPoint endPoint) {
    HttpConnection connection = new DeadlineConnection(getHttpConfiguration(), connector, endPoint);
    connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
    connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
    return configure(connection, connector, endPoint);
  }

  private final class DeadlineConnection extends HttpConnection {
    DeadlineConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
      super(configuration, connector, endPoint);
    }

    @Override
    protected HttpParser newHttpParser(HttpCompliance compliance) {
      // the plain parser only lends its request handler, which HttpConnection keeps private
      HttpParser.RequestHandler handler =
          new RouterJudgedTargets(
              (HttpParser.RequestHandler) super.newHttpParser(compliance).getHandler());
      DeadlineParser parser =
          new DeadlineParser(handler, getHttpConfiguration().getRequestHeaderSize(), compliance);
      parser.setHeaderCacheSize(getHttpConfiguration().getHeaderCacheSize());
      parser.setHeaderCacheCaseSensitive(getHttpConfiguration().isHeaderCacheCaseSensitive());
      return parser;
    }

    /**
     * The parser shortens the idle timeout to the deadline. Jetty's own handling of its expiry
     * closes the connection without a word whenever no read is pending at that instant: while a
     * late byte is parsed, or as one arrives. So the expiry is handled here: a pending read is
     * failed (at most one of that and the byte's arrival wins), which refuses the request from
     * {@link #onFillInterestedFailed}; otherwise a parse is under way and refuses by itself once it
     * sees the deadline passed ({@link #fillInterested}). An expiry of the shortened timeout just
     * after a refusal is ignored, since Jetty would fail the 408 being written.
     */
    @Override
    public boolean onIdleExpired(TimeoutException expiry) {
      if (!timeout.isZero() && getParser() instanceof DeadlineParser parser) {
        if (parser.readingHeaders() && getEndPoint() instanceof AbstractEndPoint endPoint) {
          endPoint.getFillInterest().onFail(expiry);
          return false;
        }
        if (parser.refused
            && getEndPoint() instanceof IdleTimeout idle
            && idle.getIdleFor() < idle.getIdleTimeout()) {
          return false;
        }
      }
      return super.onIdleExpired(expiry);
    }

    /**
     * A parse that ends past the deadline refuses rather than waiting to read more: no timer is
     * then needed to end the request (one rescheduled while a parse runs can be lost in Jetty's
     * idle checks); a millisecond early is still the deadline, as timers go. And a refused
     * request's connection reads no more: a byte read while the 408 is written would find the
     * parser closed, and Jetty would close the connection under the answer.
     */
    @Override
    public void fillInterested() {
      if (!timeout.isZero() && getParser() instanceof DeadlineParser parser) {
        if (parser.readingHeaders() && parser.remainingMillis() <= 1) {
          parser.refuse();
        }
        if (parser.refused) {
          return;
        }
      }
      super.fillInterested();
    }

    /**
     * A client silent mid-header reaches here when the idle timeout the parser shortened to the
     * deadline expires; no read is pending then, so the 408 can be written as a late byte would
     * have had it written.
     */
    @Override
    protected void onFillInterestedFailed(Throwable cause) {
      if (cause instanceof TimeoutException
          && !timeout.isZero()
          && getParser() instanceof DeadlineParser parser
          && parser.readingHeaders()) {
        parser.refuse();
        return;
      }
      super.onFillInterestedFailed(cause);
    }

    private final class DeadlineParser extends HttpParser {
      /**
       * The idle timeout this parser set while a header arrives, 0 when it set none; and the one it
       * replaced.
       */
      private long shortenedTo;

      private long replaced;

      /**
       * Set once the request is refused: the parser stays in its header state, but the connection
       * only ends now, as any other failed one.
       */
      private volatile boolean refused;

      DeadlineParser(RequestHandler handler, int maxHeaderBytes, HttpCompliance compliance) {
        super(handler, maxHeaderBytes, compliance);
      }

      @Override
      public boolean parseNext(ByteBuffer buffer) {
        if (timeout.isZero()) {
          return super.parseNext(buffer);
        }
        if (refused) {
          BufferUtil.clear(buffer);
          return false;
        }
        if (readingHeaders() && remainingMillis() <= 0) {
          BufferUtil.clear(buffer);
          refuse();
          return false;
        }
        boolean handle = super.parseNext(buffer);
        boundIdleTimeout();
        return handle;
      }

      /** Between a request's first byte and the end of its headers, unless refused already. */
      boolean readingHeaders() {
        return !refused && !isStart() && inHeaderState();
      }

      /**
       * Fails the request as Jetty fails one it cannot parse: the error handler answers, then the
       * connection closes.
       */
      void refuse() {
        refused = true;
        restoreIdleTimeout();
        badMessage(
            new BadMessageException(
                HttpStatus.REQUEST_TIMEOUT_408,
                "the request headers did not arrive within " + timeout.toMillis() + " ms"));
      }

      private long remainingMillis() {
        return timeout.toMillis() - NanoTime.millisSince(getBeginNanoTime());
      }

      /**
       * Makes a client that goes quiet mid-header expire at the deadline rather than a whole idle
       * timeout later.
       */
      private void boundIdleTimeout() {
        if (!readingHeaders()) {
          restoreIdleTimeout();
          return;
        }
        EndPoint endPoint = getEndPoint();
        long current = endPoint.getIdleTimeout();
        long remaining = Math.max(1, remainingMillis());
        if (shortenedTo == 0 && (current <= 0 || remaining < current)) {
          replaced = current;
        } else if (shortenedTo == 0 || current != shortenedTo) {
          return; // the idle timeout is shorter already, or someone else (a shutdown) changed it
          // since
        }
        shortenedTo = remaining;
        endPoint.setIdleTimeout(remaining);
      }

      private void restoreIdleTimeout() {
        if (shortenedTo != 0 && getEndPoint().getIdleTimeout() == shortenedTo) {
          getEndPoint().setIdleTimeout(replaced);
        }
        shortenedTo = 0;
      }
    }
  }
}
