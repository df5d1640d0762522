package dev.trestle.cli.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sits in front of the Table API and answers {@code GET /health} and {@code GET /metrics} itself;
 * everything else reaches the API, whose requests {@link RequestMetrics} and {@link RequestLog}
 * hear about from the server. Account names are lower-case letters and digits, so an account called
 * "health" still reaches its tables under {@code /health/...}; only the bare paths without service
 * query parameters are taken here.
 */
public final class OperationsHandler extends Handler.Wrapper {
  private final OperationsEndpoints endpoints;

  public OperationsHandler(Handler tableApi, HealthCheck health, PrometheusMeterRegistry registry) {
    super(tableApi);
    this.endpoints = new OperationsEndpoints(health, registry);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    return endpoints.handle(request, response, callback)
        || super.handle(request, response, callback);
  }
}
