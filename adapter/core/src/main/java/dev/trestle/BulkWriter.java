package dev.trestle;

/**
 * Loads many entities into one table fast, for migrations and imports: entities are validated as
 * they are added, kept until a batch is full, then written in one database transaction of multi-row
 * statements rendered once. Unlike {@link TableClient} writes, a bulk write checks no ETag and
 * takes no entity-group lock: the last write of a key wins. Not thread-safe; use one writer per
 * thread.
 *
 * <p>{@link #flush()} commits what is pending; {@link #close()} flushes. After each commit the
 * {@link BulkWriteOptions#listener() listener} hears the count and the last entity committed, which
 * is where a resumed load starts again.
 */
public interface BulkWriter extends AutoCloseable {

  /**
   * Adds an entity; a full batch is committed before this returns. A later entity with the same
   * keys replaces an earlier one (REPLACE) or fails the batch with {@code EntityAlreadyExists}
   * (INSERT).
   */
  void add(TableEntity entity);

  /**
   * Adds an entity as read by {@link TableService#readRawEntities} from a service of the same
   * {@link TableService#storedForm()}, without decoding its properties; otherwise as {@link #add}.
   * A row SQL wrote rather than Trestle may be malformed: its keys, its version (when timestamps
   * are kept) and its document's length are checked, failing with {@code InternalError} naming the
   * row; the document's inside is not parsed, so a malformed one is copied as it is and fails reads
   * on the target as on the source.
   */
  void addRaw(RawEntity entity);

  /** Commits what is pending, in one transaction. */
  void flush();

  /** Entities added and committed so far (a key added twice counts twice). */
  long committed();

  /** Commits what is pending. */
  @Override
  void close();

  /** Hears each commit. */
  @FunctionalInterface
  interface Listener {
    /** The first {@code total} entities added are committed, the last of them {@code last}. */
    void committed(long total, TableEntity last);
  }
}
