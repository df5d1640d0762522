package dev.trestle;

import java.util.Objects;

/**
 * One operation of a relaxed transaction and the table it writes to (see {@link
 * ServiceExtensions#submitTransaction}).
 *
 * @param tableName the table, matched case-insensitively as everywhere; never null
 * @param operation what to do there; never null
 */
public record TableWrite(String tableName, TableOperation operation) {
  /** Refuses a null table or operation ({@link NullPointerException}). */
  public TableWrite {
    Objects.requireNonNull(tableName, "tableName");
    Objects.requireNonNull(operation, "operation");
  }
}
