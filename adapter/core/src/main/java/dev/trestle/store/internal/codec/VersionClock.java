package dev.trestle.store.internal.codec;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a store's new versions come from: a clock in ticks, strictly increasing over every value it
 * handed out, so that within a server no two writes share a Timestamp or ETag, even two in the same
 * 100 ns or an entity deleted and inserted again at once. A write of an existing entity takes the
 * later of this and the stored version plus one tick, decided in its SQL statement from the stored
 * row, so that versions increase per entity whatever the server or its clock.
 */
public final class VersionClock {
  /** The system clock, shared by every store of the process. */
  public static final VersionClock SYSTEM = new VersionClock(Clock.systemUTC());

  private final Clock clock;
  private final AtomicLong last = new AtomicLong();

  /**
   * A clock of its own (a test's skewed clock); its sequence is separate from {@link #SYSTEM}'s.
   */
  public VersionClock(Clock clock) {
    this.clock = clock;
  }

  /**
   * The clock's time in ticks as it is, not a version: what expiry is judged against, so that tests
   * move it with a fake clock.
   */
  public long time() {
    return Ticks.of(clock.instant());
  }

  /** The clock in ticks, but always after every value handed out before by this clock. */
  public long now() {
    long candidate = Ticks.of(clock.instant());
    return last.accumulateAndGet(candidate, (previous, c) -> Math.max(previous + 1, c));
  }

  /**
   * The next version's ticks after {@code previous}: {@link #now()}, or {@code previous + 1} when
   * another server with a clock ahead of ours wrote it. That bump stays with this entity: one
   * stored version from a wrong clock must not drag every later write of this process into the
   * future.
   */
  public long next(long previous) {
    long now = now();
    return now > previous ? now : previous + 1;
  }
}
