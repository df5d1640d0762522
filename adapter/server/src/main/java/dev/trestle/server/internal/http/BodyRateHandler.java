package dev.trestle.server.internal.http;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.NanoTime;

/**
 * Fails the read of a request body that falls behind a minimum rate once a grace period is over: by
 * then the body must have delivered {@code rate × (elapsed − grace)} bytes, counted from when the
 * handler began to read it. The read fails with a {@link TimeoutException}, which the Table API
 * answers as {@code OperationTimedOut} before closing the connection. A client that stops sending
 * altogether is left to the idle timeout.
 *
 * <p>Jetty 12.0 does not enforce {@code HttpConfiguration.setMinRequestDataRate}, and its {@code
 * StatisticsHandler.MinimumDataRateHandler} divides the bytes of all requests by one request's
 * time.
 */
public final class BodyRateHandler extends Handler.Wrapper {
  private final long minBytesPerSecond;
  private final long graceNanos;

  public BodyRateHandler(Handler next, long minBytesPerSecond, Duration grace) {
    super(next);
    if (minBytesPerSecond <= 0 || grace.isNegative()) {
      throw new IllegalArgumentException(
          "the minimum body rate must be positive and its grace period not negative, "
              + "but were "
              + minBytesPerSecond
              + " and "
              + grace);
    }
    this.minBytesPerSecond = minBytesPerSecond;
    this.graceNanos = grace.toNanos();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    return super.handle(new RateCheckedRequest(request), response, callback);
  }

  private final class RateCheckedRequest extends Request.Wrapper {
    private long startedNanos;
    private boolean started;
    private long bytes;
    private volatile Content.Chunk failure;

    RateCheckedRequest(Request request) {
      super(request);
    }

    @Override
    public Content.Chunk read() {
      start();
      Content.Chunk refused = failure;
      if (refused != null) {
        return refused;
      }
      Content.Chunk chunk = super.read();
      if (chunk != null) {
        bytes += chunk.remaining();
      }
      return chunk;
    }

    /** Checked where a reader would wait: a body that has arrived in full is never refused. */
    @Override
    public void demand(Runnable demandCallback) {
      start();
      if (failure == null && behind()) {
        failure =
            Content.Chunk.from(
                new TimeoutException(
                    "the request body arrived slower than "
                        + minBytesPerSecond
                        + " bytes per second"));
      }
      if (failure != null) {
        demandCallback.run();
        return;
      }
      super.demand(demandCallback);
    }

    private void start() {
      if (!started) {
        started = true;
        startedNanos = NanoTime.now();
      }
    }

    private boolean behind() {
      long late = NanoTime.since(startedNanos) - graceNanos;
      return late > 0 && bytes < (double) minBytesPerSecond * late / 1e9;
    }
  }
}
