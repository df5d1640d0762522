package dev.trestle.cli.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers {@code GET /health} and {@code GET /metrics} (bare paths, no query) and declines
 * everything else, so it can sit in front of the Table API or serve an operations port alone.
 */
public final class OperationsEndpoints extends Handler.Abstract {
  private final HealthCheck health;
  private final PrometheusMeterRegistry registry;

  public OperationsEndpoints(HealthCheck health, PrometheusMeterRegistry registry) {
    this.health = health;
    this.registry = registry;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = request.getHttpURI().getPath();
    boolean read = request.getMethod().equals("GET") || request.getMethod().equals("HEAD");
    if (!read || request.getHttpURI().getQuery() != null) {
      return false;
    }
    if (path.equals("/health")) {
      HealthCheck.Result result = health.check();
      return answer(
          response, callback, result.up() ? 200 : 503, "application/json", result.toJson());
    }
    if (path.equals("/metrics")) {
      return answer(
          response, callback, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
    }
    return false;
  }

  private static boolean answer(
      Response response, Callback callback, int status, String contentType, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }
}
