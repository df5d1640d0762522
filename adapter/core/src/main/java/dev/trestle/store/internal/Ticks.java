package dev.trestle.store.internal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * Time as the store keeps it: 100-nanosecond ticks since 1970-01-01T00:00:00Z in a BIGINT, the service's
 * precision. Timestamps and ETags of entities are both derived from one tick value.
 */
final class Ticks {
  static final long PER_SECOND = 10_000_000L;

  private static final DateTimeFormatter SEVEN_DIGITS = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
      .appendFraction(ChronoField.NANO_OF_SECOND, 7, 7, true)
      .appendLiteral('Z')
      .toFormatter()
      .withZone(ZoneOffset.UTC);

  private Ticks() {}

  static long of(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), PER_SECOND), instant.getNano() / 100);
  }

  static Instant toInstant(long ticks) {
    return Instant.ofEpochSecond(Math.floorDiv(ticks, PER_SECOND), Math.floorMod(ticks, PER_SECOND) * 100);
  }

  static long now() {
    return of(Instant.now());
  }

  /** The next version's ticks: the clock, but always after the previous version, even within one tick. */
  static long next(long previous) {
    return Math.max(now(), previous + 1);
  }

  /** {@code 2021-09-21T01:04:07.0980562Z}: always seven fractional digits, as the service writes Timestamp. */
  static String format(long ticks) {
    return SEVEN_DIGITS.format(toInstant(ticks));
  }
}
