package dev.trestle;

/**
 * What to list of an account's tables: an OData {@code $filter} on {@code TableName} (null for all),
 * a page size (null for 1,000) and the opaque {@code x-ms-continuation-NextTableName} to resume from.
 */
public record TableQuery(String filter, Integer top, String nextTableName) {
  public static TableQuery all() {
    return new TableQuery(null, null, null);
  }
}
