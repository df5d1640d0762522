package dev.trestle.cli.ops;

import dev.trestle.server.events.RequestListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

  /**
   * The timer of each operation and status, found once: building and registering it again on every
   * request (tags, latency buckets, the registry's lookup) was a measurable share of a small
   * request's CPU.
   */
  private final Map<String, Map<Integer, Timer>> timers = new ConcurrentHashMap<>();

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
    timers
        .computeIfAbsent(request.operation(), operation -> new ConcurrentHashMap<>())
        .computeIfAbsent(request.status(), status -> timer(request.operation(), status))
        .record(request.duration());
  }

  private Timer timer(String operation, int status) {
    return Timer.builder("trestle.requests")
        .description("Table API requests by operation and HTTP status")
        .tag("operation", operation)
        .tag("status", Integer.toString(status))
        .serviceLevelObjectives(LATENCY_BUCKETS)
        .register(registry);
  }
}
