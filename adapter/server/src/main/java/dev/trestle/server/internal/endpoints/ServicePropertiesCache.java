package dev.trestle.server.internal.endpoints;

import dev.trestle.TableService;
import dev.trestle.server.internal.cors.CorsPolicy;
import dev.trestle.server.internal.xml.ServiceProperties;
import dev.trestle.server.internal.xml.ServicePropertiesXml;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each account's service properties as stored (defaults where never set), and the CORS policy
 * derived from them. CORS is consulted on every request with an {@code Origin}, so the policy is
 * cached for {@code refresh}: a change made through this server applies at once, one made through
 * another server sharing the database once the cached policy is older than {@code refresh}. This is
 * the only state a server keeps from the database between requests.
 */
public final class ServicePropertiesCache {
  private record Cached(CorsPolicy policy, Instant loadedAt) {}

  private final Clock clock;
  private final Duration refresh;
  private final Map<String, Cached> policies = new ConcurrentHashMap<>();

  public ServicePropertiesCache(Clock clock, Duration refresh) {
    this.clock = clock;
    this.refresh = refresh;
  }

  ServiceProperties load(TableService tables) {
    return tables
        .getServiceProperties()
        .map(
            xml ->
                ServiceProperties.defaults()
                    .withChanges(ServicePropertiesXml.parse(xml.getBytes(StandardCharsets.UTF_8))))
        .orElse(ServiceProperties.defaults());
  }

  /** Applies a Set Service Properties document: elements present replace the stored ones. */
  void update(TableService tables, byte[] document) {
    ServiceProperties changes = ServicePropertiesXml.parse(document);
    ServiceProperties merged = load(tables).withChanges(changes);
    tables.setServiceProperties(ServicePropertiesXml.write(merged));
    policies.remove(tables.accountName());
  }

  public CorsPolicy corsPolicy(TableService tables) {
    Instant now = clock.instant();
    Cached cached = policies.get(tables.accountName());
    if (cached == null || !cached.loadedAt().plus(refresh).isAfter(now)) {
      cached = new Cached(new CorsPolicy(load(tables).cors()), now);
      policies.put(tables.accountName(), cached);
    }
    return cached.policy();
  }
}
