package dev.trestle.store.internal.read;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/** The {@code $top} rule: 1 to 1,000 entities per page, 1,000 when not given. */
final class PageSize {
  static final int MAX = 1000;

  private PageSize() {}

  static int of(Integer top) {
    if (top == null) {
      return MAX;
    }
    if (top < 1 || top > MAX) {
      throw new TableException(TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE,
          "The value '" + top + "' of query parameter '$top' is out of range: it must be between 1 and 1000.");
    }
    return top;
  }
}
