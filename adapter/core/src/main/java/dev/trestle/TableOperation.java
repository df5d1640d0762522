package dev.trestle;

import java.util.Objects;

/**
 * One operation of an entity-group transaction. {@code ifMatch} is an ETag or {@code "*"} for the
 * conditional kinds and null for the others.
 */
public record TableOperation(Kind kind, TableEntity entity, String ifMatch) {

  public enum Kind { INSERT, UPDATE, MERGE, UPSERT_REPLACE, UPSERT_MERGE, DELETE }

  public TableOperation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(entity, "entity");
  }

  public static TableOperation insert(TableEntity entity) { return new TableOperation(Kind.INSERT, entity, null); }
  public static TableOperation update(TableEntity entity, String ifMatch) { return new TableOperation(Kind.UPDATE, entity, ifMatch); }
  public static TableOperation merge(TableEntity entity, String ifMatch) { return new TableOperation(Kind.MERGE, entity, ifMatch); }
  public static TableOperation upsertReplace(TableEntity entity) { return new TableOperation(Kind.UPSERT_REPLACE, entity, null); }
  public static TableOperation upsertMerge(TableEntity entity) { return new TableOperation(Kind.UPSERT_MERGE, entity, null); }

  public static TableOperation delete(String partitionKey, String rowKey, String ifMatch) {
    return new TableOperation(Kind.DELETE, TableEntity.builder(partitionKey, rowKey).build(), ifMatch);
  }
}
