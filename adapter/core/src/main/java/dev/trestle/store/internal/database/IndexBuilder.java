package dev.trestle.store.internal.database;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import java.util.OptionalLong;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * How one database builds declared property indexes and reads through them: the seam each database
 * implements ({@link DatabaseType#indexBuilder}). The catalogue of what is declared is {@link
 * IndexCatalogue}, the same on every database.
 */
public interface IndexBuilder {
  /** For databases that build no property indexes: declarations are kept, queries scan. */
  IndexBuilder NONE =
      new IndexBuilder() {
        @Override
        public boolean builds() {
          return false;
        }

        @Override
        public void build(Store store, DeclaredIndex index) {}

        @Override
        public void drop(Store store, String indexName) {}

        @Override
        public boolean isBuilt(DSLContext sql, String indexName) {
          return false;
        }

        @Override
        public OptionalLong size(DSLContext sql, String indexName) {
          return OptionalLong.empty();
        }

        @Override
        public Condition candidates(
            DeclaredIndex.Column column, ComparisonOperator operator, PropertyValue literal) {
          return null;
        }
      };

  /** Whether this database builds the indexes it is asked to. */
  boolean builds();

  /**
   * Builds the index named in the declaration, without blocking writes where the database can, and
   * returns when it is ready; does nothing when it exists and is valid. Runs outside any
   * transaction, however long it takes.
   */
  void build(Store store, DeclaredIndex index);

  /** Drops the index if it exists, without blocking writes where the database can. */
  void drop(Store store, String indexName);

  /** Whether a usable index of that name exists. */
  boolean isBuilt(DSLContext sql, String indexName);

  /** The index's size on disk; empty when it does not exist or the database does not tell. */
  OptionalLong size(DSLContext sql, String indexName);

  /**
   * A condition on the entity table that every entity satisfies whose property (a column of a
   * declared index) compares with {@code literal} as {@code operator} says (with the filter's typed
   * semantics), and that the index serves; null when the index cannot narrow this comparison.
   */
  Condition candidates(
      DeclaredIndex.Column column, ComparisonOperator operator, PropertyValue literal);
}
