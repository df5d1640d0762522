package dev.trestle.store.internal.codec;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.BinaryValue;
import dev.trestle.PropertyValue.BooleanValue;
import dev.trestle.PropertyValue.DateTimeValue;
import dev.trestle.PropertyValue.DoubleValue;
import dev.trestle.PropertyValue.GuidValue;
import dev.trestle.PropertyValue.Int32Value;
import dev.trestle.PropertyValue.Int64Value;
import dev.trestle.PropertyValue.StringValue;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The one-letter type tags of stored properties and the canonical text of each type's values. The
 * text is what SQL compares: numbers and ticks as decimals, doubles as Java writes them ({@code
 * NaN}, {@code -0.0}, {@code 1.0E10}, all of which PostgreSQL's float8 reads back exactly), GUIDs
 * in lower case and binary as lower-case hex, both of whose ordinal order is the order of their
 * bytes.
 */
public enum StoredType {
  STRING("s", EdmType.STRING),
  INT32("i", EdmType.INT32),
  INT64("l", EdmType.INT64),
  DOUBLE("d", EdmType.DOUBLE),
  BOOLEAN("b", EdmType.BOOLEAN),
  DATE_TIME("t", EdmType.DATE_TIME),
  GUID("g", EdmType.GUID),
  BINARY("x", EdmType.BINARY);

  private static final HexFormat HEX = HexFormat.of();

  /** values() copies its array on every call; these lookups run for every stored property. */
  private static final StoredType[] TYPES = values();

  public final String tag;
  final EdmType edmType;

  StoredType(String tag, EdmType edmType) {
    this.tag = tag;
    this.edmType = edmType;
  }

  public static StoredType of(EdmType type) {
    return TYPES[type.ordinal()];
  }

  public static StoredType ofTag(String tag) {
    for (StoredType type : TYPES) {
      if (type.tag.equals(tag)) {
        return type;
      }
    }
    throw new IllegalStateException("Unknown stored property type tag '" + tag + "'");
  }

  /** True when the value is written as a JSON number or boolean rather than a JSON string. */
  boolean isJsonScalar() {
    return this == INT32 || this == INT64 || this == BOOLEAN || this == DATE_TIME;
  }

  /** The canonical text of a value (before any dialect encoding of strings). */
  public static String text(PropertyValue value) {
    return switch (value) {
      case StringValue v -> v.value();
      case Int32Value v -> Integer.toString(v.value());
      case Int64Value v -> Long.toString(v.value());
      case DoubleValue v -> Double.toString(v.value());
      case BooleanValue v -> Boolean.toString(v.value());
      case DateTimeValue v -> Long.toString(Ticks.of(v.value()));
      case GuidValue v -> v.value().toString();
      case BinaryValue v -> HEX.formatHex(v.value());
    };
  }

  /** The value back from its canonical text. */
  PropertyValue parse(String text) {
    return switch (this) {
      case STRING -> PropertyValue.of(text);
      case INT32 -> PropertyValue.of(Integer.parseInt(text));
      case INT64 -> PropertyValue.of(Long.parseLong(text));
      case DOUBLE -> PropertyValue.of(Double.parseDouble(text));
      case BOOLEAN -> PropertyValue.of(Boolean.parseBoolean(text));
      case DATE_TIME -> PropertyValue.of(Ticks.toInstant(Long.parseLong(text)));
      case GUID -> PropertyValue.of(UUID.fromString(text));
      case BINARY -> PropertyValue.of(HEX.parseHex(text));
    };
  }
}
