package dev.trestle;

import dev.trestle.model.TableLimits;
import java.util.List;

/**
 * What to read from a table: an OData {@code $filter} (null for all), the properties to return
 * (null for all), the page size (null for the service maximum of 1,000), where to resume, and the
 * key range the query may see (null for the whole table). A page size outside 0 to 1,000 is refused
 * here, with {@code OutOfRangeQueryParameterValue}.
 */
public record EntityQuery(
    String filter, List<String> select, Integer top, Continuation continuation, KeyRange keyRange) {

  /**
   * Copies {@code select}; refuses a {@code top} outside 0 to 1,000 with {@code
   * OutOfRangeQueryParameterValue}.
   */
  public EntityQuery {
    select = select == null ? null : List.copyOf(select);
    checkTop(top);
  }

  /** A query of the whole table. */
  public EntityQuery(String filter, List<String> select, Integer top, Continuation continuation) {
    this(filter, select, top, continuation, null);
  }

  /**
   * The one check of a page size ({@code $top}), for entity and table queries alike. Zero is valid,
   * as in OData and on Azure: an empty page, with no continuation.
   */
  static void checkTop(Integer top) {
    if (top != null && (top < 0 || top > TableLimits.MAX_PAGE_SIZE)) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE,
          "The value '"
              + top
              + "' of query parameter '$top' is out of range: it must be between 0 and "
              + TableLimits.MAX_PAGE_SIZE
              + ".");
    }
  }

  /** Every entity of the table, a page of 1,000 at a time. */
  public static EntityQuery all() {
    return new EntityQuery(null, null, null, null);
  }

  /**
   * The entities matching an OData {@code $filter}; a malformed filter fails on use with {@code
   * InvalidInput}.
   */
  public static EntityQuery filter(String filter) {
    return new EntityQuery(filter, null, null, null);
  }

  /**
   * This query returning only these properties (keys, ETag and Timestamp always come back); null
   * for all.
   */
  public EntityQuery withSelect(List<String> properties) {
    return new EntityQuery(filter, properties, top, continuation, keyRange);
  }

  /** This query with a page size of 1 to 1,000, or null for 1,000. */
  public EntityQuery withTop(Integer top) {
    return new EntityQuery(filter, select, top, continuation, keyRange);
  }

  /** This query resuming where a previous page's {@link EntityPage#next()} points. */
  public EntityQuery withContinuation(Continuation continuation) {
    return new EntityQuery(filter, select, top, continuation, keyRange);
  }

  /**
   * Limits the query to a key range: the store reads nothing outside it, and pages and
   * continuations stay inside.
   */
  public EntityQuery withKeyRange(KeyRange keyRange) {
    return new EntityQuery(filter, select, top, continuation, keyRange);
  }

  /**
   * Where the next page starts, as the opaque values of the {@code
   * x-ms-continuation-NextPartitionKey} and {@code x-ms-continuation-NextRowKey} headers. Clients
   * pass them back unchanged.
   */
  public record Continuation(String nextPartitionKey, String nextRowKey) {}

  /**
   * The keys from (startPartitionKey, startRowKey) to (endPartitionKey, endRowKey), both ends
   * included, in the service's key order, as a table SAS's {@code spk}, {@code srk}, {@code epk}
   * and {@code erk} grant them. A null partition key leaves that end open; a null row key takes in
   * the whole of its partition.
   */
  public record KeyRange(
      String startPartitionKey, String startRowKey, String endPartitionKey, String endRowKey) {

    /**
     * Whether an entity's keys lie inside, comparing UTF-16 code units as the store orders keys.
     */
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
}
