package dev.trestle;

import java.util.Objects;

/**
 * How a {@link BulkWriter} writes: {@link Mode#REPLACE} (insert or replace, the default) or {@link
 * Mode#INSERT} (an existing entity fails the batch); whether each entity keeps the Timestamp it
 * carries (and so its ETag) instead of getting the time of the write; how many entities one
 * transaction holds (default 1,000); whether batches are written by threads of the writer's own
 * while the caller fills the next one (pipelined: up to {@value #PIPELINED_BATCHES} batches are
 * written at once, each on a pooled connection of its own, but they still commit one at a time, in
 * order, and the listener hears each commit on the caller's thread, at a later add, flush or
 * close). H2 writes pipelined batches one after another all the same: a process killed while it
 * commits several at once can leave its file with a key no later write can take.
 */
public record BulkWriteOptions(
    Mode mode,
    boolean keepTimestamps,
    int batchSize,
    BulkWriter.Listener listener,
    boolean pipelined) {

  /** How each entity is written. */
  public enum Mode {
    /** Insert or replace. */
    REPLACE,
    /** Insert only: an entity that exists already fails its batch with EntityAlreadyExists. */
    INSERT
  }

  public static final int DEFAULT_BATCH_SIZE = 1_000;

  /**
   * Batches a pipelined writer has in flight at most: committed, or written and waiting for the
   * batch before them to commit. A stop may leave that many committed after the last one the
   * listener heard.
   */
  public static final int PIPELINED_BATCHES = 3;

  public BulkWriteOptions {
    Objects.requireNonNull(mode, "mode");
    if (batchSize < 1 || batchSize > 100_000) {
      throw new IllegalArgumentException(
          "batchSize must be between 1 and 100000 entities; was " + batchSize + ".");
    }
    if (listener == null) {
      listener = (total, last) -> {};
    }
  }

  /** Insert or replace, new timestamps, batches of 1,000. */
  public static BulkWriteOptions defaults() {
    return new BulkWriteOptions(Mode.REPLACE, false, DEFAULT_BATCH_SIZE, null, false);
  }

  public BulkWriteOptions withMode(Mode mode) {
    return new BulkWriteOptions(mode, keepTimestamps, batchSize, listener, pipelined);
  }

  /**
   * Entities carrying a Timestamp keep it (and their ETag follows from it); those without get the
   * time of the write.
   */
  public BulkWriteOptions withKeepTimestamps(boolean keep) {
    return new BulkWriteOptions(mode, keep, batchSize, listener, pipelined);
  }

  public BulkWriteOptions withBatchSize(int size) {
    return new BulkWriteOptions(mode, keepTimestamps, size, listener, pipelined);
  }

  public BulkWriteOptions withPipelined(boolean pipelined) {
    return new BulkWriteOptions(mode, keepTimestamps, batchSize, listener, pipelined);
  }

  public BulkWriteOptions withListener(BulkWriter.Listener listener) {
    return new BulkWriteOptions(mode, keepTimestamps, batchSize, listener, pipelined);
  }
}
