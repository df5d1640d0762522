package dev.trestle.cli.ops;

import dev.trestle.server.events.RequestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The access log: one line per Table API request at info on logger {@code dev.trestle.requests}.
 * The query is shown with SAS signatures redacted, and the account is named whether the URL put it
 * in the host name or the path; the server's request id and the client's {@code
 * x-ms-client-request-id} match a line to the SDK's own logs. Each field is also a key-value pair
 * of the event, which {@code --log-format json} writes as a field of its own.
 */
public final class RequestLog implements RequestListener {
  public static final String LOGGER = "dev.trestle.requests";
  private static final Logger requestLog = LoggerFactory.getLogger(LOGGER);

  @Override
  public void requestFinished(FinishedRequest request) {
    if (!requestLog.isInfoEnabled()) {
      return;
    }
    String millis =
        String.format(java.util.Locale.ROOT, "%.1f", request.duration().toNanos() / 1e6);
    LoggingEventBuilder line =
        requestLog
            .atInfo()
            .addKeyValue("method", request.method())
            .addKeyValue("path", request.target())
            .addKeyValue("status", request.status())
            .addKeyValue("errorCode", request.errorCode())
            .addKeyValue("operation", request.operation())
            .addKeyValue("account", request.account())
            .addKeyValue("durationMs", Double.parseDouble(millis))
            .addKeyValue("bytesIn", request.bytesRead())
            .addKeyValue("bytesOut", request.bytesWritten())
            .addKeyValue("requestId", request.requestId())
            .addKeyValue("clientRequestId", request.clientRequestId());
    line.log(
        "{} {} {} {} {} account={} {} ms in={}B out={}B request-id={} client-request-id={}",
        request.method(),
        request.target(),
        request.status(),
        orDash(request.errorCode()),
        request.operation(),
        orDash(request.account()),
        millis,
        request.bytesRead(),
        request.bytesWritten(),
        orDash(request.requestId()),
        orDash(request.clientRequestId()));
  }

  private static String orDash(String value) {
    return value == null ? "-" : value;
  }
}
