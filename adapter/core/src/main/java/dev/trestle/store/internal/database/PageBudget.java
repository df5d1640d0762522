package dev.trestle.store.internal.database;

import java.time.Duration;

/**
 * What one query page may spend: time, counted from when the query arrived (so waiting for a
 * connection counts too), and memory, as the stored size of the entities read. A page that reaches
 * either ends early with a continuation, as Azure's pages do; the clients already follow
 * continuations. Rows are fetched in batches sized from the entities seen so far, so a page of
 * large entities never holds more than about {@link #MAX_BYTES} plus one batch of them.
 */
public final class PageBudget {
  /** Stored entity bytes per page: a thousand 1 KB entities fit; a thousand of 0.5 MB do not. */
  static final long MAX_BYTES = 4L << 20;

  private final long deadline;
  private long bytes;
  private int rows;

  public PageBudget(Duration time) {
    this(System.nanoTime() + time.toNanos());
  }

  private PageBudget(long deadline) {
    this.deadline = deadline;
  }

  /** The same time left, nothing read: for reading the page again from its start. */
  public PageBudget restarted() {
    return new PageBudget(deadline);
  }

  public boolean timeIsUp() {
    return System.nanoTime() > deadline;
  }

  /** Milliseconds left, at least 1. */
  public long remainingMillis() {
    return Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
  }

  public void read(long storedBytes) {
    bytes += storedBytes;
    rows++;
  }

  /** The page holds as many entity bytes as a page may: it ends after the entity read last. */
  public boolean full() {
    return bytes >= MAX_BYTES;
  }

  /**
   * How many rows to fetch next, at most {@code wanted}: {@code firstBatch} before any entity's
   * size is known (the scan's choice), then as many as fit in what is left, by the average so far.
   */
  public int batch(int wanted, int firstBatch) {
    if (rows == 0) {
      return Math.min(wanted, firstBatch);
    }
    long average = Math.max(1, bytes / rows);
    long fit = Math.max(1, (MAX_BYTES - bytes) / average);
    return (int) Math.max(1, Math.min(wanted, fit));
  }
}
