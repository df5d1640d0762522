package dev.trestle.store.internal.codec;

import dev.trestle.edm.EdmDateTime;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Time as the store keeps it: 100-nanosecond ticks since 1970-01-01T00:00:00Z in a BIGINT, the
 * service's precision. Timestamps and ETags of entities are both derived from one tick value.
 */
public final class Ticks {
  static final long PER_SECOND = 10_000_000L;

  private Ticks() {}

  public static long of(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), PER_SECOND), instant.getNano() / 100);
  }

  public static Instant toInstant(long ticks) {
    return Instant.ofEpochSecond(
        Math.floorDiv(ticks, PER_SECOND), Math.floorMod(ticks, PER_SECOND) * 100);
  }

  /**
   * The last tick value this process handed out. Versions come from one strictly increasing
   * sequence, so that within a server no two writes share a Timestamp or ETag, even two in the same
   * 100 ns or an entity deleted and inserted again at once (an ETag of the deleted entity must
   * never match the new one).
   */
  private static final AtomicLong LAST = new AtomicLong();

  /** The clock in ticks, but always after every value handed out before by this process. */
  public static long now() {
    long clock = of(Instant.now());
    return LAST.accumulateAndGet(clock, (last, candidate) -> Math.max(last + 1, candidate));
  }

  /**
   * The next version's ticks: {@link #now()}, but after the previous version even when another
   * server with a clock ahead of ours wrote it. That bump stays with this entity: one stored
   * version from a wrong clock must not drag every later write of this process into the future.
   */
  public static long next(long previous) {
    long now = now();
    return now > previous ? now : previous + 1;
  }

  /**
   * {@code 2021-09-21T01:04:07.0980562Z}: always seven fractional digits, as the service writes
   * Timestamp.
   */
  static String format(long ticks) {
    return EdmDateTime.formatSevenDigits(toInstant(ticks));
  }
}
