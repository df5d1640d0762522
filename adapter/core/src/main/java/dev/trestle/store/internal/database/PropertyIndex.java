package dev.trestle.store.internal.database;

import dev.trestle.filter.FilterExpression;
import org.jooq.Condition;

/**
 * An optional index on the entity properties that can narrow the rows a filter walks: a necessary
 * condition on the properties that the index serves. The answers are the same with or without it.
 */
public interface PropertyIndex {
  /** For databases without such an index. */
  PropertyIndex NONE =
      new PropertyIndex() {
        @Override
        public Condition candidates(FilterExpression filter) {
          return null;
        }

        @Override
        public boolean present() {
          return false;
        }
      };

  /**
   * A condition every entity the filter matches satisfies, which the index serves; null when none.
   */
  Condition candidates(FilterExpression filter);

  /** Whether the index exists right now. */
  boolean present();
}
