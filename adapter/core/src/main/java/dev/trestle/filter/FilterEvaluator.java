package dev.trestle.filter;

import dev.trestle.TableEntity;

/** The reference semantics of a filter, evaluated in memory on one entity (used to check the SQL translation). */
public final class FilterEvaluator {
  private FilterEvaluator() {}

  /** True when the entity matches; PartitionKey, RowKey and Timestamp come from the entity itself. */
  public static boolean matches(FilterExpression filter, TableEntity entity) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
