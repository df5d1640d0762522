package dev.trestle.store.internal.ext;

import dev.trestle.RelaxedTransactions;
import dev.trestle.ServiceExtensions;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableWrite;
import dev.trestle.TransactionFailedException;
import dev.trestle.model.EntitySize;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.write.OperationChecks;
import dev.trestle.store.internal.write.RelaxedWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The extensions of one account: relaxed transactions, checked here against the operator's bounds
 * before anything reaches the database.
 */
public final class SqlServiceExtensions implements ServiceExtensions {
  private final Store store;
  private final String account;
  private final RelaxedTransactions bounds;

  /** {@code bounds} null: relaxed transactions are off. */
  public SqlServiceExtensions(Store store, String account, RelaxedTransactions bounds) {
    this.store = store;
    this.account = account;
    this.bounds = bounds;
  }

  @Override
  public Optional<RelaxedTransactions> relaxedTransactions() {
    return Optional.ofNullable(bounds);
  }

  @Override
  public List<TableEntity> submitTransaction(List<TableWrite> writes) {
    Objects.requireNonNull(writes, "writes");
    if (bounds == null) {
      throw StoreErrors.relaxedTransactionsOff();
    }
    if (writes.isEmpty()) {
      return List.of();
    }
    if (writes.size() > bounds.maxOperations()) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "The relaxed transaction holds "
              + writes.size()
              + " operations, more than the "
              + bounds.maxOperations()
              + " this server allows (its relaxed transactions' maxOperations).");
    }
    long size = 0;
    for (TableWrite write : writes) {
      size += EntitySize.of(write.operation().entity());
    }
    if (size > bounds.maxBytes()) {
      throw new TableException(
          TableErrorCode.REQUEST_BODY_TOO_LARGE,
          "The relaxed transaction's entities measure "
              + size
              + " bytes, more than the "
              + bounds.maxBytes()
              + " this server allows (its relaxed transactions' maxBytes).");
    }
    Set<List<String>> entities = new HashSet<>();
    for (int i = 0; i < writes.size(); i++) {
      TableWrite write = writes.get(i);
      try {
        OperationChecks.validate(write.operation());
        TableEntity entity = write.operation().entity();
        if (!entities.add(
            List.of(
                TableLookup.nameKey(write.tableName()), entity.partitionKey(), entity.rowKey()))) {
          throw StoreErrors.duplicateRow();
        }
      } catch (TableException e) {
        throw new TransactionFailedException(i, e);
      }
    }
    return new RelaxedWriter(store, account).writeAll(writes);
  }
}
