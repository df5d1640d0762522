package dev.trestle.server.auth.internal;

import dev.trestle.EntityQuery;

/**
 * The key range a table SAS limits access to ({@code spk}, {@code srk}, {@code epk}, {@code erk});
 * null bounds are open. An entity is inside when (PK, RK) is at or after (startPk, startRk) and at
 * or before (endPk, endRk).
 */
public record KeyRange(
    String startPartitionKey, String startRowKey, String endPartitionKey, String endRowKey) {
  public boolean contains(String partitionKey, String rowKey) {
    return forQuery().contains(partitionKey, rowKey);
  }

  /** The same range as a query's restriction, so that the store reads only what the grant shows. */
  public EntityQuery.KeyRange forQuery() {
    return new EntityQuery.KeyRange(startPartitionKey, startRowKey, endPartitionKey, endRowKey);
  }
}
