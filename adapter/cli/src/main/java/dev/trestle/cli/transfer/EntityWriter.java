package dev.trestle.cli.transfer;

import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.model.TableLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a stream of entities into a table in entity-group transactions: consecutive entities of
 * one partition go together, up to 100 and about 2 MiB per transaction (half the service's 4 MiB
 * batch limit), so a sorted export imports about a hundred times faster than one write per entity.
 * The groups go to a {@link GroupTarget}: a database through the library, or a Table endpoint
 * through {@code $batch}.
 */
public final class EntityWriter implements AutoCloseable {
  private static final long MAX_BYTES = TableLimits.MAX_BATCH_BYTES / 2;

  /** How each entity is written. */
  public enum Mode {
    /** Insert or replace: re-running an import gives the same table. */
    UPSERT,
    /** Insert or merge: properties in the file are added to those already stored. */
    MERGE,
    /** Insert only: an entity that already exists stops the import. */
    INSERT
  }

  /**
   * An entity that could not be written, with the count written before it (earlier transactions
   * stay).
   */
  public static final class WriteFailedException extends RuntimeException {
    public WriteFailedException(String message, RuntimeException cause) {
      super(message, cause);
    }
  }

  private final GroupTarget target;
  private final Mode mode;
  private final List<TableEntity> pending = new ArrayList<>();
  private final Set<String> pendingRowKeys = new HashSet<>();
  private long pendingBytes;
  private long written;

  /** Writes into a table of a database. */
  public EntityWriter(TableClient table, Mode mode) {
    this(new DatabaseGroups(table), mode);
  }

  public EntityWriter(GroupTarget target, Mode mode) {
    this.target = target;
    this.mode = mode;
  }

  public void add(TableEntity entity) {
    boolean startsNewGroup =
        !pending.isEmpty()
            && (!pending.getFirst().partitionKey().equals(entity.partitionKey())
                || pending.size() == TableLimits.MAX_BATCH_OPERATIONS
                || pendingRowKeys.contains(entity.rowKey())
                || pendingBytes + approximateBytes(entity) > MAX_BYTES);
    if (startsNewGroup) {
      flush();
    }
    pending.add(entity);
    pendingRowKeys.add(entity.rowKey());
    pendingBytes += approximateBytes(entity);
  }

  /** Writes what is pending. */
  public void flush() {
    if (pending.isEmpty()) {
      return;
    }
    try {
      target.write(List.copyOf(pending), mode);
    } catch (GroupTarget.GroupRefusedException e) {
      TableEntity refused = pending.get(Math.min(Math.max(e.index(), 0), pending.size() - 1));
      throw new WriteFailedException(
          "Cannot write entity (PartitionKey='"
              + refused.partitionKey()
              + "', RowKey='"
              + refused.rowKey()
              + "') to table "
              + target.tableName()
              + ": "
              + e.getMessage()
              + " ("
              + (written + e.writtenBefore())
              + " entities were written before it)",
          e);
    }
    written += pending.size();
    pending.clear();
    pendingRowKeys.clear();
    pendingBytes = 0;
  }

  public long written() {
    return written;
  }

  @Override
  public void close() {
    flush();
  }

  /**
   * Roughly the service's entity size: UTF-16 strings, 8 bytes for most scalars. Only has to stay
   * on the safe side.
   */
  static long approximateBytes(TableEntity entity) {
    long bytes = 4 + 2L * (entity.partitionKey().length() + entity.rowKey().length());
    for (var property : entity.properties().entrySet()) {
      bytes +=
          8
              + 2L * property.getKey().length()
              + switch (property.getValue()) {
                case PropertyValue.StringValue s -> 4 + 2L * s.value().length();
                case PropertyValue.BinaryValue b -> 4 + b.value().length;
                case PropertyValue.GuidValue g -> 16;
                default -> 8;
              };
    }
    return bytes;
  }
}
