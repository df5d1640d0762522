package dev.trestle.store.internal;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableExtensions;
import dev.trestle.TableOperation;
import dev.trestle.TransactionFailedException;
import dev.trestle.json.internal.EntityRow;
import dev.trestle.json.internal.EntityRowPage;
import dev.trestle.json.internal.RowQueries;
import dev.trestle.json.internal.RowReads;
import dev.trestle.model.EntitySize;
import dev.trestle.model.TableLimits;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreErrors;
import dev.trestle.store.internal.ext.SqlTableExtensions;
import dev.trestle.store.internal.read.EntityReader;
import dev.trestle.store.internal.read.PointReader;
import dev.trestle.store.internal.write.EntityWriter;
import dev.trestle.store.internal.write.OperationChecks;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The entity operations of one table: validation first, then one database transaction per call. */
final class SqlTableClient implements TableClient, RowQueries, RowReads {
  private final Store store;
  private final String account;
  private final String tableName;
  private final EntityWriter writer;
  private final boolean extensions;

  SqlTableClient(Store store, String account, String tableName, boolean extensions) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
    this.writer = new EntityWriter(store, account, tableName);
    this.extensions = extensions;
  }

  @Override
  public String tableName() {
    return tableName;
  }

  @Override
  public TableEntity insert(TableEntity entity) {
    return writeOne(TableOperation.insert(entity));
  }

  @Override
  public TableEntity get(String partitionKey, String rowKey) {
    return get(partitionKey, rowKey, null);
  }

  @Override
  public TableEntity get(String partitionKey, String rowKey, List<String> select) {
    Objects.requireNonNull(partitionKey, "partitionKey");
    Objects.requireNonNull(rowKey, "rowKey");
    return new PointReader(store, account, tableName).get(partitionKey, rowKey, select);
  }

  @Override
  public EntityRow getRow(String partitionKey, String rowKey, List<String> select) {
    Objects.requireNonNull(partitionKey, "partitionKey");
    Objects.requireNonNull(rowKey, "rowKey");
    return new PointReader(store, account, tableName).row(partitionKey, rowKey);
  }

  @Override
  public TableEntity update(TableEntity entity, String ifMatch) {
    return writeOne(TableOperation.update(entity, ifMatch));
  }

  @Override
  public TableEntity merge(TableEntity entity, String ifMatch) {
    return writeOne(TableOperation.merge(entity, ifMatch));
  }

  @Override
  public TableEntity upsertReplace(TableEntity entity) {
    return writeOne(TableOperation.upsertReplace(entity));
  }

  @Override
  public TableEntity upsertMerge(TableEntity entity) {
    return writeOne(TableOperation.upsertMerge(entity));
  }

  @Override
  public void delete(String partitionKey, String rowKey, String ifMatch) {
    writeOne(TableOperation.delete(partitionKey, rowKey, ifMatch));
  }

  @Override
  public EntityPage query(EntityQuery query) {
    return new EntityReader(store, account, tableName).query(query).toEntityPage(query.select());
  }

  @Override
  public EntityRowPage queryRows(EntityQuery query) {
    return new EntityReader(store, account, tableName).query(query).toRowPage();
  }

  @Override
  public List<TableEntity> submitTransaction(List<TableOperation> operations) {
    Objects.requireNonNull(operations, "operations");
    if (operations.isEmpty()) {
      return List.of();
    }
    if (operations.size() > TableLimits.MAX_BATCH_OPERATIONS) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "The batch request operation exceeds the maximum 100 changes per change set.");
    }
    long size = 0;
    for (TableOperation operation : operations) {
      size += EntitySize.of(operation.entity());
    }
    if (size > TableLimits.MAX_BATCH_BYTES) {
      throw new TableException(
          TableErrorCode.REQUEST_BODY_TOO_LARGE,
          "The request body is too large and exceeds the maximum permissible limit.");
    }
    String partitionKey = operations.get(0).entity().partitionKey();
    Set<String> rowKeys = new HashSet<>();
    for (int i = 0; i < operations.size(); i++) {
      TableOperation operation = operations.get(i);
      try {
        if (!operation.entity().partitionKey().equals(partitionKey)) {
          throw new TableException(
              TableErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS,
              "All commands in a batch must operate on same entity group.");
        }
        if (!rowKeys.add(operation.entity().rowKey())) {
          throw StoreErrors.duplicateRow();
        }
        OperationChecks.validate(operation);
      } catch (TableException e) {
        throw new TransactionFailedException(i, e);
      }
    }
    return writer.writeAll(operations);
  }

  @Override
  public TableExtensions extensions() {
    if (!extensions) {
      throw StoreErrors.extensionsOff();
    }
    return new SqlTableExtensions(store, account, tableName);
  }

  private TableEntity writeOne(TableOperation operation) {
    OperationChecks.validate(operation);
    return writer.writeOne(operation);
  }
}
