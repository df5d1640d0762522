package dev.trestle;

import java.time.Duration;

/**
 * The change feed of one table, a Trestle extension (reach it with {@link
 * TableExtensions#changeFeed()}): every committed insert, update and delete of the table's
 * entities, in commit order, each exactly once, with a position token to resume after it. Off until
 * {@link #enable}d; the database appends each change in the transaction that makes it, so a
 * rolled-back write leaves nothing and a restart loses nothing.
 */
public interface ChangeFeed {
  /** How long changes are kept unless told otherwise. */
  Duration DEFAULT_RETENTION = Duration.ofDays(7);

  /** The most changes one read returns. */
  int MAX_PAGE = 1000;

  /** The longest a read waits for a change. */
  Duration MAX_WAIT = Duration.ofSeconds(60);

  /**
   * Starts recording the table's changes from now on (or, when it is on, changes what it records);
   * returns the token of the feed's current end. {@code withEntities}: each insert and update
   * carries the entity's new properties (the feed then costs their size again on every write).
   * Changes older than {@code retention} are removed by {@link #sweep}.
   */
  String enable(boolean withEntities, Duration retention);

  /** Stops recording and deletes the recorded changes; their tokens no longer resume. */
  void disable();

  /** Whether the table has a feed. */
  boolean enabled();

  /**
   * Up to {@code max} changes after the token ({@code null}: from the oldest kept), waiting up to
   * {@code wait} for the first one when there is none yet (a long poll; {@link Duration#ZERO} does
   * not wait). {@code ResourceNotFound} without a feed; {@code OutOfRangeInput} for a token whose
   * next changes were swept or that belongs to an earlier feed of the table.
   */
  ChangePage read(String from, int max, Duration wait);

  /** The changes after the token, without waiting. */
  default ChangePage read(String from) {
    return read(from, MAX_PAGE, Duration.ZERO);
  }

  /** The token of the feed's current end: reading from it returns only later changes. */
  String latest();

  /**
   * Removes at most {@code max} changes older than the feed's retention, oldest first; returns how
   * many. Bounded so it can run often without holding the table's writers long.
   */
  long sweep(int max);
}
