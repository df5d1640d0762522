package dev.trestle;

import java.time.Duration;
import java.util.Objects;

/**
 * A table's time to live, a Trestle extension ({@link TableExtensions#timeToLive(TimeToLive)}). In
 * a table where it is enabled, an entity expires at its {@value #EXPIRES_PROPERTY} property (an
 * Edm.DateTime) when it has one, else {@code defaultTtl} after its last write (its Timestamp), else
 * never; an expired entity is absent to every read and write at once and removed later by the
 * sweeper. Elsewhere {@value #EXPIRES_PROPERTY} is an ordinary property.
 *
 * @param enabled whether the table's entities expire at all
 * @param defaultTtl how long after its last write an entity without {@value #EXPIRES_PROPERTY}
 *     lives, in whole seconds; null when such entities never expire
 */
public record TimeToLive(boolean enabled, Duration defaultTtl) {
  /**
   * The reserved property (Edm.DateTime) that gives one entity its expiry. An ordinary property to
   * every standard client: the entity reads and copies to Azure unchanged, where it never expires.
   */
  public static final String EXPIRES_PROPERTY = "TrestleExpires";

  /** No entity of the table expires (the default). */
  public static final TimeToLive OFF = new TimeToLive(false, null);

  public TimeToLive {
    if (defaultTtl != null) {
      if (!enabled) {
        throw new IllegalArgumentException("a default time to live needs the TTL enabled");
      }
      if (defaultTtl.isNegative() || defaultTtl.isZero() || defaultTtl.getNano() != 0) {
        throw new IllegalArgumentException(
            "a default time to live is a positive number of whole seconds: " + defaultTtl);
      }
    }
  }

  /** Only entities carrying {@value #EXPIRES_PROPERTY} expire. */
  public static TimeToLive entitiesOnly() {
    return new TimeToLive(true, null);
  }

  /** Entities expire {@code defaultTtl} after their last write, or at their own expiry. */
  public static TimeToLive of(Duration defaultTtl) {
    return new TimeToLive(true, Objects.requireNonNull(defaultTtl, "defaultTtl"));
  }
}
