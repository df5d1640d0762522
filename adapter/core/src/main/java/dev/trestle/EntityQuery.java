package dev.trestle;

import dev.trestle.model.TableLimits;
import java.util.List;

/**
 * What to read from a table: an OData {@code $filter} (null for all), the properties to return
 * (null for all), the page size (null for the service maximum of 1,000) and where to resume.
 * A page size outside 1 to 1,000 is refused here, with {@code OutOfRangeQueryParameterValue}.
 */
public record EntityQuery(String filter, List<String> select, Integer top, Continuation continuation) {

  public EntityQuery {
    select = select == null ? null : List.copyOf(select);
    checkTop(top);
  }

  /** The one check of a page size ({@code $top}), for entity and table queries alike. */
  static void checkTop(Integer top) {
    if (top != null && (top < 1 || top > TableLimits.MAX_PAGE_SIZE)) {
      throw new TableException(TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE, "The value '" + top
          + "' of query parameter '$top' is out of range: it must be between 1 and " + TableLimits.MAX_PAGE_SIZE + ".");
    }
  }

  public static EntityQuery all() {
    return new EntityQuery(null, null, null, null);
  }

  public static EntityQuery filter(String filter) {
    return new EntityQuery(filter, null, null, null);
  }

  public EntityQuery withSelect(List<String> properties) {
    return new EntityQuery(filter, properties, top, continuation);
  }

  public EntityQuery withTop(Integer top) {
    return new EntityQuery(filter, select, top, continuation);
  }

  public EntityQuery withContinuation(Continuation continuation) {
    return new EntityQuery(filter, select, top, continuation);
  }

  /**
   * Where the next page starts, as the opaque values of the {@code x-ms-continuation-NextPartitionKey}
   * and {@code x-ms-continuation-NextRowKey} headers. Clients pass them back unchanged.
   */
  public record Continuation(String nextPartitionKey, String nextRowKey) {}
}
