package dev.trestle.cli.ops;

import dev.trestle.server.events.RequestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per Table API request at debug on logger {@code dev.trestle.requests}, with its
 * operation's name.
 */
public final class RequestLog implements RequestListener {
  private static final Logger requestLog = LoggerFactory.getLogger("dev.trestle.requests");

  @Override
  public void requestFinished(FinishedRequest request) {
    if (requestLog.isDebugEnabled()) {
      requestLog.debug(
          "{} {} {} {} {} ms (request id {})",
          request.method(),
          request.path(),
          request.status(),
          request.operation(),
          String.format("%.1f", request.duration().toNanos() / 1e6),
          request.requestId());
    }
  }
}
