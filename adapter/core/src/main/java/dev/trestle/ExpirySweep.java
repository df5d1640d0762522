package dev.trestle;

/**
 * The background removal of expired entities (see {@link TimeToLive}), reached with {@link
 * TableService#expirySweep()}. Expired entities are already absent to every read; the sweep only
 * gives their space back. It also finishes the delete of a table that a crash interrupted: that
 * table is gone already, its entities are absent to every read, and the sweep removes them. Safe to
 * run on several servers sharing a database at once.
 */
@FunctionalInterface
public interface ExpirySweep {
  /**
   * One bounded run: reads at most {@code batchSize} entities of one table with time to live,
   * continuing where the previous run of this sweep stopped (the next table once one is done), and
   * deletes those that have expired, one partition per transaction. Returns how many it deleted.
   * When a table's delete was interrupted, a run removes that table's entities and catalog row
   * instead, and returns how many entities it removed.
   */
  long runOnce(int batchSize);
}
