package dev.trestle;

import java.util.Objects;

/**
 * Trestle's extensions of one table, beyond what Azure Table Storage offers: counting, existence
 * checks, newest-first reads, ordering by a property and bulk deletes, each one SQL statement (or
 * one per partition) instead of a client loop. Code using them does not run on Azure; reach them
 * explicitly with {@link TableClient#extensions()}. A service built with {@code extensions(false)}
 * refuses every call with {@code NotImplemented}.
 */
public interface TableExtensions {

  /**
   * How many entities match the query's filter (null for all) inside its key range, counted by the
   * database; {@code select}, {@code top} and the continuation are ignored. {@code TableNotFound}
   * if the table does not exist.
   */
  long count(EntityQuery query);

  /** How many entities match an OData {@code $filter} (null for all). */
  default long count(String filter) {
    return count(EntityQuery.filter(filter));
  }

  /** Whether the entity exists, from the key index alone (its properties are not read). */
  boolean exists(String partitionKey, String rowKey);

  /**
   * One page of the query's matches in descending (PartitionKey, RowKey) order: within one
   * partition ({@code PartitionKey eq 'p'}) the last RowKeys first, so {@code top(10)} reads the
   * latest ten. The continuation resumes before the last entity returned; pass it only to this
   * method.
   */
  EntityPage queryDescending(EntityQuery query);

  /**
   * One page of the query's matches (filter, key range, {@code top}) in the order of one property,
   * as {@link Ordering} defines it. The continuation carries the last entity's sort value and keys
   * and resumes exactly after it (no entity skipped or repeated, however many share a value); pass
   * it only to this method with the same ordering. Each page reads every match of the filter, so
   * its cost grows with the matches, not with {@code top}.
   */
  EntityPage queryOrderedBy(EntityQuery query, Ordering ordering);

  /**
   * Deletes every entity of one partition in one transaction; returns how many there were (0 for an
   * empty or absent partition).
   */
  long deletePartition(String partitionKey);

  /**
   * Deletes the entities matching the query's filter (null for all) inside its key range, one
   * transaction per partition, telling {@code progress} after each partition; returns how many were
   * deleted. A failure leaves the partitions done so far deleted.
   */
  long deleteWhere(EntityQuery query, DeleteProgress progress);

  /** Deletes the entities matching an OData {@code $filter}, one transaction per partition. */
  default long deleteWhere(String filter) {
    return deleteWhere(
        EntityQuery.filter(Objects.requireNonNull(filter, "filter")), DeleteProgress.NONE);
  }

  /** Deletes every entity of the table in one transaction, keeping the table and its settings. */
  long truncate();

  /**
   * The table's time to live: {@link TimeToLive#OFF} unless set. {@code TableNotFound} if the table
   * does not exist.
   */
  TimeToLive timeToLive();

  /**
   * Sets the table's time to live; it applies at once to every entity, already stored or not (an
   * entity past its expiry disappears; one that switching TTL off or lengthening the default brings
   * back reappears until the sweeper has removed it). {@link TimeToLive#OFF} clears it.
   */
  void timeToLive(TimeToLive setting);

  /**
   * The table's change feed: enabled per table, then every committed change in order, resumable
   * from a position token.
   */
  ChangeFeed changeFeed();

  /** Told after each partition of a {@link #deleteWhere(EntityQuery, DeleteProgress)}. */
  @FunctionalInterface
  interface DeleteProgress {
    /** Tells nothing. */
    DeleteProgress NONE = (partitionKey, deleted, total) -> {};

    /**
     * A partition's matches are deleted and committed: {@code deleted} of them, {@code total} so
     * far.
     */
    void partitionDeleted(String partitionKey, long deleted, long total);
  }
}
