package dev.trestle.store.internal.codec;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.util.Map;

/** One stored version of an entity, with its keys as the caller knows them (decoded). */
public record StoredRow(
    String partitionKey, String rowKey, long ticks, Map<String, PropertyValue> properties) {

  /**
   * The entity as written, with the version {@code ticks}: its properties are shared with it, not
   * copied again.
   */
  public static TableEntity written(TableEntity entity, long ticks) {
    return versioned(entity.toBuilder(), ticks).build();
  }

  /** The builder with the ETag and Timestamp of the version {@code ticks}: their one home. */
  static TableEntity.Builder versioned(TableEntity.Builder entity, long ticks) {
    return entity.etag(ETags.of(ticks)).timestamp(Ticks.toInstant(ticks));
  }

  public TableEntity toEntity() {
    return versioned(TableEntity.builder(partitionKey, rowKey).putAll(properties), ticks).build();
  }
}
