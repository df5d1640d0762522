package dev.trestle;

/**
 * What to list of an account's tables: an OData {@code $filter} on {@code TableName} (null for
 * all), a page size (null for 1,000) and the opaque {@code x-ms-continuation-NextTableName} to
 * resume from. A page size outside 0 to 1,000 is refused here, with {@code
 * OutOfRangeQueryParameterValue}.
 */
public record TableQuery(String filter, Integer top, String nextTableName) {
  /** Refuses a {@code top} outside 0 to 1,000 with {@code OutOfRangeQueryParameterValue}. */
  public TableQuery {
    EntityQuery.checkTop(top);
  }

  /** Every table of the account, a page of 1,000 at a time. */
  public static TableQuery all() {
    return new TableQuery(null, null, null);
  }
}
