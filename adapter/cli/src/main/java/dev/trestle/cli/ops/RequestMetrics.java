package dev.trestle.cli.ops;

import dev.trestle.server.events.RequestListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Request counts and latencies by operation and status ({@code trestle_requests_seconds_*}), and
 * requests in flight.
 */
public final class RequestMetrics implements RequestListener {
  private static final Duration[] LATENCY_BUCKETS = {
    Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
    Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
    Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5)
  };

  private final MeterRegistry registry;
  private final AtomicInteger active;

  public RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.active = registry.gauge("trestle.requests.active", new AtomicInteger());
  }

  @Override
  public void requestStarted() {
    active.incrementAndGet();
  }

  @Override
  public void requestFinished(FinishedRequest request) {
    active.decrementAndGet();
    Timer.builder("trestle.requests")
        .description("Table API requests by operation and HTTP status")
        .tag("operation", request.operation())
        .tag("status", Integer.toString(request.status()))
        .serviceLevelObjectives(LATENCY_BUCKETS)
        .register(registry)
        .record(request.duration());
  }
}
