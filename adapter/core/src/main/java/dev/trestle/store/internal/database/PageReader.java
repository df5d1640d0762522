package dev.trestle.store.internal.database;

import org.jooq.Condition;
import org.jooq.DSLContext;

/** How one database reads a page of a query: in key-range chunks, or through a cursor. */
@FunctionalInterface
public interface PageReader {
  /**
   * Reads one page of at most {@code top} entities after {@code resume} (null: from the start),
   * through the context's connection, which the call holds for the whole page.
   */
  StoredPage page(DSLContext sql, ScanRequest scan, int top, Condition resume);
}
