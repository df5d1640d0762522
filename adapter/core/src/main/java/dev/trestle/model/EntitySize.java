package dev.trestle.model;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.util.Map;

/**
 * Azure's accounting of an entity's size, which the 1 MiB limit is checked against. It is not the
 * size of any wire format: strings count two bytes per UTF-16 code unit, and each property pays a
 * fixed 8-byte overhead plus its name.
 */
public final class EntitySize {
  private EntitySize() {}

  private static final int ENTITY_OVERHEAD = 4;
  private static final int PROPERTY_OVERHEAD = 8;
  private static final int LENGTH_PREFIX = 4;

  /** The size of the entity's keys and user properties; Timestamp is not counted. */
  public static long of(TableEntity entity) {
    long size =
        ENTITY_OVERHEAD + 2L * entity.partitionKey().length() + 2L * entity.rowKey().length();
    for (Map.Entry<String, PropertyValue> property : entity.properties().entrySet()) {
      size += ofProperty(property.getKey(), property.getValue());
    }
    return size;
  }

  /** One property's share: overhead, name and value. */
  public static long ofProperty(String name, PropertyValue value) {
    return PROPERTY_OVERHEAD + 2L * name.length() + ofValue(value);
  }

  /** The value's share alone. */
  public static long ofValue(PropertyValue value) {
    return switch (value) {
      case PropertyValue.StringValue s -> LENGTH_PREFIX + 2L * s.value().length();
      case PropertyValue.BinaryValue b -> LENGTH_PREFIX + (long) b.value().length;
      case PropertyValue.Int32Value i -> 4;
      case PropertyValue.Int64Value l -> 8;
      case PropertyValue.DoubleValue d -> 8;
      case PropertyValue.DateTimeValue t -> 8;
      case PropertyValue.GuidValue g -> 16;
      case PropertyValue.BooleanValue b -> 1;
    };
  }
}
