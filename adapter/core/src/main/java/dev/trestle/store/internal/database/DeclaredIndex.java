package dev.trestle.store.internal.database;

import dev.trestle.EdmType;

/**
 * One row of the index catalogue: a table's property indexed for one kind of value, under the
 * physical index name the database knows it by.
 *
 * @param ready whether it is built, so that queries may read through it
 */
public record DeclaredIndex(
    long tableId,
    String property,
    ValueKind kind,
    EdmType declaredType,
    String indexName,
    boolean ready) {

  /**
   * Whether this index holds the values that filters compare {@code property} with as {@code kind}.
   */
  public boolean serves(String property, ValueKind kind) {
    return this.kind == kind && this.property.equals(property);
  }
}
