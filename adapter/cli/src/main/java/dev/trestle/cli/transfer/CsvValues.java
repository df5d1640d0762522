package dev.trestle.cli.transfer;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmBoolean;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.edm.EdmDouble;
import dev.trestle.edm.EdmGuid;
import dev.trestle.edm.EdmInteger;

/**
 * The cells of Azure Storage Explorer's table CSV: a value's text and its {@code @type} cell. Types
 * are written {@code Edm.Int64} (as Storage Explorer long wrote them) and read with or without the
 * {@code Edm.} prefix (as recent versions write them), in any case.
 */
final class CsvValues {
  private CsvValues() {}

  static String typeCell(PropertyValue value) {
    return value.type().odataName();
  }

  /** The type a {@code @type} cell names; null for an empty cell. */
  static EdmType type(String cell) {
    if (cell.isEmpty()) {
      return null;
    }
    String name = cell.regionMatches(true, 0, "Edm.", 0, 4) ? cell.substring(4) : cell;
    for (EdmType type : EdmType.values()) {
      if (type.odataName().substring(4).equalsIgnoreCase(name)) {
        return type;
      }
    }
    throw new IllegalArgumentException("unknown type '" + cell + "'");
  }

  static String text(PropertyValue value) {
    return switch (value) {
      case PropertyValue.StringValue s -> s.value();
      case PropertyValue.Int32Value i -> Integer.toString(i.value());
      case PropertyValue.Int64Value l -> EdmInteger.formatInt64(l.value());
      case PropertyValue.DoubleValue d -> {
        String special = EdmDouble.special(d.value());
        yield special != null ? special : EdmDouble.format(d.value());
      }
      case PropertyValue.BooleanValue b -> b.value().toString();
      case PropertyValue.DateTimeValue t -> EdmDateTime.format(t.value());
      case PropertyValue.GuidValue g -> EdmGuid.format(g.value());
      case PropertyValue.BinaryValue b -> EdmBinary.format(b.value());
    };
  }

  /** The value a cell holds as {@code type}; RuntimeExceptions mean it does not. */
  static PropertyValue parse(EdmType type, String text) {
    return switch (type) {
      case STRING -> PropertyValue.of(text);
      case INT32 -> PropertyValue.of(EdmInteger.parseInt32(text));
      case INT64 -> PropertyValue.of(EdmInteger.parseInt64(text));
      case DOUBLE -> PropertyValue.of(EdmDouble.parse(text));
      case BOOLEAN -> PropertyValue.of(EdmBoolean.parse(text));
      case DATE_TIME -> PropertyValue.of(EdmDateTime.parse(text));
      case GUID -> PropertyValue.of(EdmGuid.parse(text));
      case BINARY -> PropertyValue.of(EdmBinary.parse(text));
    };
  }
}
