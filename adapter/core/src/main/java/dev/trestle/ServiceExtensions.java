package dev.trestle;

import java.util.List;
import java.util.Optional;

/**
 * Trestle's extensions of an account, beyond what Azure Table Storage offers; reach them explicitly
 * with {@link TableService#extensions()}. Code using them does not run on Azure.
 */
public interface ServiceExtensions {

  /**
   * A relaxed transaction: the operations, on any entities of any tables of the account, all or
   * none, in one database transaction. Unlike an entity-group transaction it may hold more than 100
   * operations and 4 MiB (up to the operator's {@link RelaxedTransactions} bounds) and span
   * partitions and tables; each entity may still appear only once. Returns, per operation, the
   * entity as stored afterwards (keys only for a delete). {@code NotImplemented} unless the service
   * was built with {@link TableServiceBuilder#relaxedTransactions(RelaxedTransactions)}.
   *
   * <p>Across partitions this is a distributed transaction on a database sharded by partition key
   * (Citus): it works, but costs what such transactions cost and does not scale out.
   *
   * @throws TransactionFailedException naming the index of the operation that failed; nothing was
   *     written
   * @throws TableException when the transaction as a whole exceeds the bounds
   */
  List<TableEntity> submitTransaction(List<TableWrite> writes);

  /**
   * A relaxed transaction on one table, across as many of its partitions as the operations name.
   */
  default List<TableEntity> submitTransaction(String tableName, List<TableOperation> operations) {
    return submitTransaction(
        operations.stream().map(operation -> new TableWrite(tableName, operation)).toList());
  }

  /** The bounds of relaxed transactions, or empty when the operator did not enable them. */
  Optional<RelaxedTransactions> relaxedTransactions();
}
