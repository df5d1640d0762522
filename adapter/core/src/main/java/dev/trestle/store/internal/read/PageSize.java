package dev.trestle.store.internal.read;

import dev.trestle.model.TableLimits;

/**
 * The page size of a query: its {@code $top} (range-checked by the query records), 1,000 when not
 * given.
 */
final class PageSize {
  private PageSize() {}

  static int of(Integer top) {
    return top == null ? TableLimits.MAX_PAGE_SIZE : top;
  }
}
