package dev.trestle.server.auth.internal;

import java.util.Optional;

/** What an authenticated request may do. */
public interface Grant {
  /**
   * Throws a 403 {@code TableException} when the credential may not run this operation on this
   * table (null for service/table-list operations).
   */
  void authorize(Operation operation, String tableName);

  /**
   * For entity writes and point reads under a table SAS with a key range: throws 403 when the keys
   * are outside. Without a key range, the table's check alone.
   */
  default void authorizeEntity(
      Operation operation, String tableName, String partitionKey, String rowKey) {
    authorize(operation, tableName);
  }

  /** The key range queries must be restricted to (table SAS with spk/epk), if any. */
  default Optional<KeyRange> keyRange() {
    return Optional.empty();
  }
}
