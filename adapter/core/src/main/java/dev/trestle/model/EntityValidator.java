package dev.trestle.model;

import dev.trestle.TableEntity;

/** The Table service's rules for names, keys, properties and sizes; each violation is a TableException. */
public final class EntityValidator {
  private EntityValidator() {}

  /** Table-name rule and reserved names: InvalidResourceName / OutOfRangeInput. */
  public static void validateTableName(String tableName) {}

  /** One key (keyName is "PartitionKey" or "RowKey"): forbidden characters and size. */
  public static void validateKey(String keyName, String value) {}

  /** Everything checked before an entity is written: keys, property count, names, value sizes, entity size. */
  public static void validateForWrite(TableEntity entity) {}
}
