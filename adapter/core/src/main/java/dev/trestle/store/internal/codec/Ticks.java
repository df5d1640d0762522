package dev.trestle.store.internal.codec;

import dev.trestle.edm.EdmDateTime;
import java.time.Instant;

/**
 * Time as the store keeps it: 100-nanosecond ticks since 1970-01-01T00:00:00Z in a BIGINT, the
 * service's precision. Timestamps and ETags of entities are both derived from one tick value.
 */
public final class Ticks {
  public static final long PER_SECOND = 10_000_000L;

  private Ticks() {}

  public static long of(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), PER_SECOND), instant.getNano() / 100);
  }

  private static final long MIN = of(dev.trestle.model.TableLimits.MIN_DATE_TIME);
  private static final long MAX = of(dev.trestle.model.TableLimits.MAX_DATE_TIME);

  /** Checks that a stored version (or DateTime) is a time the service can write. */
  static void checkVersion(long ticks) {
    if (!inRange(ticks)) {
      throw new MalformedRowException(
          "its ticks " + ticks + " are outside the DateTime range 1601 to 9999");
    }
  }

  static boolean inRange(long ticks) {
    return ticks >= MIN && ticks <= MAX;
  }

  public static Instant toInstant(long ticks) {
    return Instant.ofEpochSecond(
        Math.floorDiv(ticks, PER_SECOND), Math.floorMod(ticks, PER_SECOND) * 100);
  }

  /** {@link VersionClock#SYSTEM}'s next value. */
  public static long now() {
    return VersionClock.SYSTEM.now();
  }

  /** {@link VersionClock#SYSTEM}'s next version after {@code previous}. */
  public static long next(long previous) {
    return VersionClock.SYSTEM.next(previous);
  }

  /**
   * {@code 2021-09-21T01:04:07.0980562Z}: always seven fractional digits, as the service writes
   * Timestamp.
   */
  static String format(long ticks) {
    return EdmDateTime.formatSevenDigits(toInstant(ticks));
  }
}
