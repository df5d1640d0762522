package dev.trestle.store.internal.write;

import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableOperation.Kind;
import dev.trestle.model.EntityValidator;
import dev.trestle.store.internal.codec.ETags;

/**
 * What can be checked of an operation without the database, so nothing is written for a bad one.
 */
public final class OperationChecks {
  private OperationChecks() {}

  /** Throws the operation's error when its keys, properties or condition are invalid. */
  public static void validate(TableOperation operation) {
    TableEntity entity = operation.entity();
    if (operation.kind() == Kind.DELETE) {
      EntityValidator.validateKey("PartitionKey", entity.partitionKey());
      EntityValidator.validateKey("RowKey", entity.rowKey());
    } else {
      EntityValidator.validateForWrite(entity);
    }
    boolean conditional =
        operation.kind() == Kind.UPDATE
            || operation.kind() == Kind.MERGE
            || operation.kind() == Kind.DELETE;
    if (conditional) {
      ETags.validate(operation.ifMatch());
    }
  }
}
