package dev.trestle;

import java.util.List;
import java.util.Objects;

/**
 * The entity operations of one table, with the Table service's exact semantics. Every write is
 * atomic; {@code ifMatch} is an ETag returned by an earlier read or write, or {@code "*"} to match
 * any version.
 */
public interface TableClient {

  /** The table name as given to {@link TableService#tableClient(String)}. */
  String tableName();

  /**
   * Inserts a new entity; {@code EntityAlreadyExists} if the keys are taken. Returns it as stored.
   */
  TableEntity insert(TableEntity entity);

  /** Reads one entity; {@code ResourceNotFound} if absent. */
  TableEntity get(String partitionKey, String rowKey);

  /** Reads one entity with only the selected properties (null selects all). */
  TableEntity get(String partitionKey, String rowKey, List<String> select);

  /**
   * Replaces an existing entity's properties; {@code ResourceNotFound} or {@code
   * UpdateConditionNotSatisfied}.
   */
  TableEntity update(TableEntity entity, String ifMatch);

  /** Adds or overwrites the given properties of an existing entity, keeping the others. */
  TableEntity merge(TableEntity entity, String ifMatch);

  /** Insert-or-replace: no condition; creates the entity when missing. */
  TableEntity upsertReplace(TableEntity entity);

  /** Insert-or-merge: no condition; creates the entity when missing. */
  TableEntity upsertMerge(TableEntity entity);

  /** Deletes an entity; {@code ResourceNotFound} or {@code UpdateConditionNotSatisfied}. */
  void delete(String partitionKey, String rowKey, String ifMatch);

  /**
   * One page of entities in (PartitionKey, RowKey) order, with the continuation of the next; {@link
   * #listEntities(EntityQuery)} follows the continuations for you.
   */
  EntityPage query(EntityQuery query);

  /**
   * Every entity matching the query, in (PartitionKey, RowKey) order, read a page at a time as
   * iteration reaches it (the Azure SDK's {@code listEntities}): {@code
   * table.listEntities(EntityQuery.filter("Price gt 10")).stream()...}. The query's {@code top} is
   * the page size; {@code select} and the key range apply to every page.
   */
  default PagedResults<TableEntity> listEntities(EntityQuery query) {
    return PagedResults.entities(this, Objects.requireNonNull(query, "query"));
  }

  /** Every entity of the table, read a page of 1,000 at a time as iteration reaches it. */
  default PagedResults<TableEntity> listEntities() {
    return listEntities(EntityQuery.all());
  }

  /**
   * Runs an entity-group transaction: all operations or none. Up to 100 operations on distinct
   * entities of one partition. Returns, per operation, the entity as stored afterwards (keys only
   * for a delete).
   *
   * @throws TransactionFailedException naming the index of the operation that failed
   * @throws TableException when the transaction as a whole is invalid (too many operations, mixed
   *     partitions)
   */
  List<TableEntity> submitTransaction(List<TableOperation> operations);

  /**
   * Trestle's extensions of this table (count, exists, newest first, bulk deletes), which Azure
   * does not offer. {@code NotImplemented} when the service was built with {@code
   * extensions(false)}, or does not offer them.
   */
  default TableExtensions extensions() {
    throw new TableException(
        TableErrorCode.NOT_IMPLEMENTED, "This TableClient offers no Trestle extensions.");
  }
}
