package dev.trestle.cli.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits in front of the Table API: answers {@code GET /health} and {@code GET /metrics} itself (unless they are
 * served on an operations port), and times every other request by operation and status, logging one line per
 * request at debug. Account names are lower-case letters and digits, so an account called "health" still reaches
 * its tables under {@code /health/...}; only the bare paths without service query parameters are taken here.
 */
public final class OperationsHandler extends Handler.Wrapper {
  private static final Logger requestLog = LoggerFactory.getLogger("dev.trestle.requests");

  private final OperationsEndpoints endpoints;
  private final RequestMetrics metrics;

  public OperationsHandler(Handler tableApi, HealthCheck health, PrometheusMeterRegistry registry) {
    this(tableApi, new OperationsEndpoints(health, registry), registry);
  }

  private OperationsHandler(Handler tableApi, OperationsEndpoints endpoints, PrometheusMeterRegistry registry) {
    super(tableApi);
    this.endpoints = endpoints;
    this.metrics = new RequestMetrics(registry);
  }

  /** Times the Table API only: {@code /health} and {@code /metrics} are served elsewhere, and here reach the API. */
  public static OperationsHandler withoutEndpoints(Handler tableApi, PrometheusMeterRegistry registry) {
    return new OperationsHandler(tableApi, (OperationsEndpoints) null, registry);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (endpoints != null && endpoints.handle(request, response, callback)) {
      return true;
    }
    return timed(request, response, callback, request.getHttpURI().getPath(), request.getHttpURI().getQuery());
  }

  private boolean timed(Request request, Response response, Callback callback, String path, String query)
      throws Exception {
    String operation = RequestClassifier.classify(effectiveMethod(request), decoded(request, path), query,
        request.getHeaders().contains(HttpHeader.IF_MATCH));
    long start = System.nanoTime();
    metrics.started();
    Callback recording = new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        record(response.getStatus());
        super.succeeded();
      }

      @Override
      public void failed(Throwable failure) {
        record(500);
        super.failed(failure);
      }

      private void record(int status) {
        long nanos = System.nanoTime() - start;
        metrics.finished(operation, status, nanos);
        if (requestLog.isDebugEnabled()) {
          requestLog.debug("{} {} {} {} {} ms (request id {})", request.getMethod(), path, status, operation,
              String.format("%.1f", nanos / 1e6), response.getHeaders().get("x-ms-request-id"));
        }
      }
    };
    boolean handled;
    try {
      handled = super.handle(request, response, recording);
    } catch (Exception | Error e) {
      metrics.finished(operation, 500, System.nanoTime() - start);
      throw e;
    }
    if (!handled) {
      metrics.finished(operation, 404, System.nanoTime() - start);
    }
    return handled;
  }

  private static String effectiveMethod(Request request) {
    String tunnelled = request.getHeaders().get("X-HTTP-Method");
    return request.getMethod().equals("POST") && tunnelled != null ? tunnelled : request.getMethod();
  }

  private static String decoded(Request request, String rawPath) {
    try {
      String decoded = request.getHttpURI().getDecodedPath();
      return decoded == null ? rawPath : decoded;
    } catch (RuntimeException e) {
      return rawPath;
    }
  }
}
