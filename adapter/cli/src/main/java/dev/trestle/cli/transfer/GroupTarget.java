package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.List;

/**
 * Where {@link EntityWriter} sends each group: entities of one partition, distinct row keys, at
 * most 100.
 */
public interface GroupTarget {

  /** The table written, for messages. */
  String tableName();

  /** Writes the group all or nothing (a group of one may be written as a single operation). */
  void write(List<TableEntity> group, EntityWriter.Mode mode);

  /**
   * The group was refused at {@link #index()}. Nothing of it was written, unless it had to be sent
   * in parts (too large for one request): then the {@link #index()} entities before the refused one
   * may have been.
   */
  final class GroupRefusedException extends RuntimeException {
    private final int index;
    private final int writtenBefore;

    public GroupRefusedException(int index, String reason, Throwable cause) {
      this(index, 0, reason, cause);
    }

    GroupRefusedException(int index, int writtenBefore, String reason, Throwable cause) {
      super(reason, cause);
      this.index = index;
      this.writtenBefore = writtenBefore;
    }

    public int index() {
      return index;
    }

    /** Entities of the group written before the refusal (only when the group went in parts). */
    public int writtenBefore() {
      return writtenBefore;
    }
  }
}
