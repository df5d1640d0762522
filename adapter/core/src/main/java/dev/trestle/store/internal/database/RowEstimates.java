package dev.trestle.store.internal.database;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * The planner's row estimates of conditions that queries repeat (a filter's index candidates, a
 * table's rows), remembered for a few seconds: a page asks for them before it reads, and asking the
 * database cost a round trip, a rendering and a planning each, about a fifth of a selective indexed
 * query. An estimate only chooses how a page reads, never what it returns; the planner's own
 * figures change only when statistics are gathered or the table grows, so a few seconds late is
 * harmless.
 */
public final class RowEstimates {
  /** How long an estimate is used. */
  static final long KEEP_NANOS = 10_000_000_000L;

  /** Remembered estimates at most: past them all are forgotten at once. */
  static final int MOST = 4096;

  private record Estimate(double rows, long taken) {}

  private final ConcurrentHashMap<String, Estimate> estimates = new ConcurrentHashMap<>();
  private final long keepNanos;

  public RowEstimates() {
    this(KEEP_NANOS);
  }

  RowEstimates(long keepNanos) {
    this.keepNanos = keepNanos;
  }

  /**
   * The estimate remembered under {@code key} while it is fresh, otherwise a new one from {@code
   * estimate}; a null key is never remembered.
   */
  public double rows(String key, DoubleSupplier estimate) {
    if (key == null) {
      return estimate.getAsDouble();
    }
    long now = System.nanoTime();
    Estimate known = estimates.get(key);
    if (known != null && now - known.taken < keepNanos) {
      return known.rows;
    }
    double rows = estimate.getAsDouble();
    if (estimates.size() >= MOST) {
      estimates.clear();
    }
    estimates.put(key, new Estimate(rows, now));
    return rows;
  }
}
