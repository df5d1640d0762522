package dev.trestle.json.internal;

import dev.trestle.TableEntity;
import dev.trestle.edm.EdmDateTime;
import java.io.IOException;
import java.util.Set;

/**
 * One entity as a response writes it: its keys, its version, and its properties handed to a sink in
 * order. A row read from the store is one without ever being decoded into a {@link TableEntity}.
 */
public interface EntityRow {
  String partitionKey();

  String rowKey();

  /** The ETag; null when not stored. */
  String etag();

  /** The Timestamp with seven fractional digits; null when not stored. */
  String timestamp();

  /**
   * Hands the properties named in {@code selected} (all when null) to {@code sink}, in the order
   * they were given.
   */
  void properties(Set<String> selected, PropertySink sink) throws IOException;

  /** An entity already decoded, as a row. */
  static EntityRow of(TableEntity entity) {
    return new EntityRow() {
      @Override
      public String partitionKey() {
        return entity.partitionKey();
      }

      @Override
      public String rowKey() {
        return entity.rowKey();
      }

      @Override
      public String etag() {
        return entity.etag();
      }

      @Override
      public String timestamp() {
        return entity.timestamp() == null
            ? null
            : EdmDateTime.formatSevenDigits(entity.timestamp());
      }

      @Override
      public void properties(Set<String> selected, PropertySink sink) throws IOException {
        for (var property : entity.properties().entrySet()) {
          if (selected == null || selected.contains(property.getKey())) {
            sink.property(
                property.getKey(),
                property.getValue().type(),
                PropertyJson.wire(property.getValue()));
          }
        }
      }
    };
  }
}
