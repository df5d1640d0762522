package dev.trestle.filter;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/** Parses the Table service's OData {@code $filter} language into a {@link FilterExpression}. */
public final class FilterParser {
  private FilterParser() {}

  /**
   * Parses a filter. Throws {@code TableException(INVALID_INPUT)} naming the position of a syntax error,
   * and the service's error when the filter has more comparisons than the service allows.
   */
  public static FilterExpression parse(String filter) {
    throw new TableException(TableErrorCode.NOT_IMPLEMENTED, "$filter is not implemented yet");
  }
}
