package dev.trestle;

import java.util.Objects;

/**
 * One operation of an entity-group transaction ({@link TableClient#submitTransaction}). {@code
 * ifMatch} is an ETag or {@code "*"} for the conditional kinds (update, merge, delete; null there
 * also matches any version) and null for the others.
 *
 * @param kind what the operation does, never null
 * @param entity the entity to write, or for a delete only its keys; never null
 * @param ifMatch the condition of an update, merge or delete; null otherwise
 */
public record TableOperation(Kind kind, TableEntity entity, String ifMatch) {

  /**
   * The six entity writes, with the semantics of the {@link TableClient} method of the same name.
   */
  public enum Kind {
    /** Fails with {@code EntityAlreadyExists} when the keys are taken. */
    INSERT,
    /**
     * Replaces an existing entity; {@code ResourceNotFound} or {@code UpdateConditionNotSatisfied}.
     */
    UPDATE,
    /**
     * Merges into an existing entity; {@code ResourceNotFound} or {@code
     * UpdateConditionNotSatisfied}.
     */
    MERGE,
    /** Inserts or replaces, unconditionally. */
    UPSERT_REPLACE,
    /** Inserts or merges, unconditionally. */
    UPSERT_MERGE,
    /**
     * Deletes an existing entity; {@code ResourceNotFound} or {@code UpdateConditionNotSatisfied}.
     */
    DELETE
  }

  /** Refuses a null kind or entity ({@link NullPointerException}). */
  public TableOperation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(entity, "entity");
  }

  /** Inserts a new entity. */
  public static TableOperation insert(TableEntity entity) {
    return new TableOperation(Kind.INSERT, entity, null);
  }

  /**
   * Replaces the entity if {@code ifMatch} (an ETag, {@code "*"} or null for any) matches the
   * stored version.
   */
  public static TableOperation update(TableEntity entity, String ifMatch) {
    return new TableOperation(Kind.UPDATE, entity, ifMatch);
  }

  /** Merges the entity's properties into the stored ones if {@code ifMatch} matches. */
  public static TableOperation merge(TableEntity entity, String ifMatch) {
    return new TableOperation(Kind.MERGE, entity, ifMatch);
  }

  /** Inserts the entity, or replaces the stored one. */
  public static TableOperation upsertReplace(TableEntity entity) {
    return new TableOperation(Kind.UPSERT_REPLACE, entity, null);
  }

  /** Inserts the entity, or merges it into the stored one. */
  public static TableOperation upsertMerge(TableEntity entity) {
    return new TableOperation(Kind.UPSERT_MERGE, entity, null);
  }

  /** Deletes the entity with these keys if {@code ifMatch} matches. */
  public static TableOperation delete(String partitionKey, String rowKey, String ifMatch) {
    return new TableOperation(
        Kind.DELETE, TableEntity.builder(partitionKey, rowKey).build(), ifMatch);
  }
}
