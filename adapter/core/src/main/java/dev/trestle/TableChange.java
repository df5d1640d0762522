package dev.trestle;

import java.time.Instant;

/**
 * One change of a table's {@link ChangeFeed}: what happened to which entity, its new version
 * ({@code etag} and {@code timestamp}, null for a delete), when it was written, and, when the feed
 * records entities, the entity as written (null otherwise and for a delete). {@code position} is
 * the token that resumes the feed after this change.
 */
public record TableChange(
    String position,
    Kind kind,
    String partitionKey,
    String rowKey,
    String etag,
    Instant timestamp,
    Instant changed,
    TableEntity entity) {

  /** What a change did. */
  public enum Kind {
    /** A new entity: an insert, or an upsert of an absent one. */
    INSERT,
    /** A new version of an entity: replace, merge, or an upsert of a present one. */
    UPDATE,
    /** The entity is gone: a delete, in a batch or a bulk delete (one change per entity). */
    DELETE
  }
}
