package dev.trestle.server.auth;

/**
 * The key range a table SAS limits access to ({@code spk}, {@code srk}, {@code epk}, {@code erk}); null bounds are open.
 * An entity is inside when (PK, RK) is at or after (startPk, startRk) and at or before (endPk, endRk).
 */
public record KeyRange(String startPartitionKey, String startRowKey, String endPartitionKey, String endRowKey) {
  public boolean contains(String partitionKey, String rowKey) {
    if (startPartitionKey != null) {
      int c = partitionKey.compareTo(startPartitionKey);
      if (c < 0 || (c == 0 && startRowKey != null && rowKey.compareTo(startRowKey) < 0)) {
        return false;
      }
    }
    if (endPartitionKey != null) {
      int c = partitionKey.compareTo(endPartitionKey);
      if (c > 0 || (c == 0 && endRowKey != null && rowKey.compareTo(endRowKey) > 0)) {
        return false;
      }
    }
    return true;
  }
}
