package dev.trestle.server.internal.xml;

import dev.trestle.server.internal.cors.CorsRule;
import java.util.List;

/**
 * The Table service properties of an account. In a parsed Set Service Properties document a
 * component is null when its element was absent; {@link #withChanges} then keeps the stored value,
 * as the service does.
 */
public record ServiceProperties(
    Logging logging, Metrics hourMetrics, Metrics minuteMetrics, List<CorsRule> cors) {

  public ServiceProperties {
    cors = cors == null ? null : List.copyOf(cors);
  }

  /** A new account's properties: logging and metrics off, no CORS rules. */
  public static ServiceProperties defaults() {
    return new ServiceProperties(
        new Logging("1.0", false, false, false, RetentionPolicy.DISABLED),
        new Metrics("1.0", false, null, RetentionPolicy.DISABLED),
        new Metrics("1.0", false, null, RetentionPolicy.DISABLED),
        List.of());
  }

  /** These properties with every component present in {@code changes} replacing the current one. */
  public ServiceProperties withChanges(ServiceProperties changes) {
    return new ServiceProperties(
        changes.logging() != null ? changes.logging() : logging,
        changes.hourMetrics() != null ? changes.hourMetrics() : hourMetrics,
        changes.minuteMetrics() != null ? changes.minuteMetrics() : minuteMetrics,
        changes.cors() != null ? changes.cors() : cors);
  }

  /** Analytics logging settings (stored and returned; Trestle writes no logs to tables). */
  public record Logging(
      String version,
      boolean delete,
      boolean read,
      boolean write,
      RetentionPolicy retentionPolicy) {}

  /** Hour or minute metrics settings; {@code includeApis} is null when metrics are off. */
  public record Metrics(
      String version, boolean enabled, Boolean includeApis, RetentionPolicy retentionPolicy) {}

  /** How long logs or metrics are kept; {@code days} (1..365) is null when disabled. */
  public record RetentionPolicy(boolean enabled, Integer days) {
    public static final RetentionPolicy DISABLED = new RetentionPolicy(false, null);
  }
}
