package dev.trestle.cli.transfer;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TransactionFailedException;
import java.util.List;

/** Groups into a database table: one entity-group transaction per group, through the library. */
final class DatabaseGroups implements GroupTarget {
  private final TableClient table;

  DatabaseGroups(TableClient table) {
    this.table = table;
  }

  @Override
  public String tableName() {
    return table.tableName();
  }

  @Override
  public void write(List<TableEntity> group, EntityWriter.Mode mode) {
    try {
      if (group.size() == 1) {
        writeOne(group.getFirst(), mode);
      } else {
        table.submitTransaction(group.stream().map(entity -> operation(entity, mode)).toList());
      }
    } catch (TransactionFailedException e) {
      throw refused(e.failedIndex(), e.operationError());
    } catch (TableException e) {
      throw refused(0, e);
    }
  }

  private void writeOne(TableEntity entity, EntityWriter.Mode mode) {
    switch (mode) {
      case UPSERT -> table.upsertReplace(entity);
      case MERGE -> table.upsertMerge(entity);
      case INSERT -> table.insert(entity);
    }
  }

  private static TableOperation operation(TableEntity entity, EntityWriter.Mode mode) {
    return switch (mode) {
      case UPSERT -> TableOperation.upsertReplace(entity);
      case MERGE -> TableOperation.upsertMerge(entity);
      case INSERT -> TableOperation.insert(entity);
    };
  }

  private static GroupRefusedException refused(int index, TableException cause) {
    return new GroupRefusedException(
        index, cause.errorCode().code() + ": " + cause.getMessage(), cause);
  }
}
