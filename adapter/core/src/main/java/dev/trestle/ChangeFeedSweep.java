package dev.trestle;

/**
 * The background removal of changes older than their feed's retention (see {@link
 * ChangeFeed#sweep}), over every table with a feed, reached with {@link
 * TableService#changeFeedSweep()}. Safe to run on several servers sharing a database at once.
 */
@FunctionalInterface
public interface ChangeFeedSweep {
  /**
   * One bounded run: removes at most {@code max} changes older than the retention of one table's
   * feed, that table again next time while it had that many to remove, else the next feed's table.
   * Returns how many it removed.
   */
  long runOnce(int max);
}
