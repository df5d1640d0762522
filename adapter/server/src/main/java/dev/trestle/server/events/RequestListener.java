package dev.trestle.server.events;

import java.time.Duration;

/**
 * Told about every request the Table API answers, for metrics and access logs; register with {@link
 * dev.trestle.server.TrestleServer.Builder#requestListener}. The operation is the one the server's
 * router decided on, so a listener never parses URLs itself. Calls come on the request's thread:
 * keep them short. A listener that throws is logged and otherwise ignored.
 */
public interface RequestListener {

  /** A request reached the Table API; exactly one {@link #requestFinished} follows. */
  default void requestStarted() {}

  /** A request was answered, or its answer could not be sent. */
  void requestFinished(FinishedRequest request);

  /**
   * One answered request.
   *
   * @param method the HTTP method as sent (a POST tunnelling MERGE through {@code X-HTTP-Method} is
   *     a POST here)
   * @param path the raw path without the query string, which may carry SAS signatures
   * @param operation the Table operation the request was dispatched as, e.g. {@code QueryEntities}
   *     or {@code InsertOrMergeEntity}; {@code Preflight} for CORS preflights; {@code Other} when
   *     the route and verb name no operation. Never a table name or key, so metric series stay
   *     bounded.
   * @param status the HTTP status answered; 500 when the handler failed or the response could not
   *     be sent
   * @param duration from the request reaching the Table API to its response being sent
   * @param requestId the {@code x-ms-request-id} answered, or null
   * @param clientRequestId the client's {@code x-ms-client-request-id}, or null
   * @param query the raw query string with the value of every SAS signature ({@code sig}) replaced
   *     by {@code REDACTED}, or null when the request had none
   * @param errorCode the {@code x-ms-error-code} answered, or null
   * @param bytesRead the request body bytes read
   * @param bytesWritten the response body bytes written
   * @param account the storage account the request addressed, from its host name (host-style URLs)
   *     or its path (path-style), the primary's name for a {@code -secondary} endpoint; null when
   *     the request never named one the server could read
   */
  record FinishedRequest(
      String method,
      String path,
      String operation,
      int status,
      Duration duration,
      String requestId,
      String clientRequestId,
      String query,
      String errorCode,
      long bytesRead,
      long bytesWritten,
      String account) {

    /** The path with the redacted query, as an access log shows the request. */
    public String target() {
      return query == null ? path : path + "?" + query;
    }
  }
}
