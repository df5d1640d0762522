package dev.trestle.store.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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
import java.io.IOException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.UnaryOperator;

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
    throw new MalformedRowException("unknown type tag '" + tag + "'");
  }

  /** The type of a one-letter tag; null for any other character. */
  static StoredType ofTag(char tag) {
    for (StoredType type : TYPES) {
      if (type.tag.charAt(0) == tag) {
        return type;
      }
    }
    return null;
  }

  /**
   * Checks that the stored value under the parser has this type's JSON form ({@link
   * PropertyCodec#encode}) and a value of the type: a row written by SQL may hold anything.
   */
  void checkStored(JsonParser json, String name) throws IOException {
    JsonToken token = json.currentToken();
    boolean fits =
        switch (this) {
          case INT32 ->
              token == JsonToken.VALUE_NUMBER_INT
                  && json.getNumberType() == JsonParser.NumberType.INT;
          case INT64, DATE_TIME ->
              token == JsonToken.VALUE_NUMBER_INT
                  && json.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
          case BOOLEAN -> token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE;
          case STRING, DOUBLE, GUID, BINARY -> token == JsonToken.VALUE_STRING;
        };
    if (!fits) {
      throw new MalformedRowException(
          "property '" + name + "' of type " + edmType.odataName() + " holds " + describe(json));
    }
    if (this == STRING || this == INT32 || this == INT64 || this == BOOLEAN) {
      return;
    }
    String text = json.getText();
    try {
      switch (this) {
        case DOUBLE -> Double.parseDouble(text);
        case GUID -> {
          if (text.length() != 36) {
            throw new IllegalArgumentException(text);
          }
          UUID.fromString(text);
        }
        case BINARY -> HEX.parseHex(text);
        case DATE_TIME -> {
          if (!Ticks.inRange(json.getLongValue())) {
            throw new IllegalArgumentException(text);
          }
        }
        default -> {}
      }
    } catch (IllegalArgumentException e) {
      throw new MalformedRowException(
          "property '" + name + "' of type " + edmType.odataName() + " holds " + describe(json));
    }
  }

  /**
   * The stored value under the parser as a value of this type, checked as {@link #checkStored}
   * checks it; each value's text is parsed once, the parse being the check. {@code decodeText}
   * undoes the dialect's encoding of strings.
   */
  PropertyValue readStored(JsonParser json, String name, UnaryOperator<String> decodeText)
      throws IOException {
    JsonToken token = json.currentToken();
    try {
      switch (this) {
        case INT32 -> {
          if (token == JsonToken.VALUE_NUMBER_INT
              && json.getNumberType() == JsonParser.NumberType.INT) {
            return PropertyValue.of(json.getIntValue());
          }
        }
        case INT64 -> {
          if (token == JsonToken.VALUE_NUMBER_INT
              && json.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return PropertyValue.of(json.getLongValue());
          }
        }
        case DATE_TIME -> {
          if (token == JsonToken.VALUE_NUMBER_INT
              && json.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            long ticks = json.getLongValue();
            if (Ticks.inRange(ticks)) {
              return PropertyValue.of(Ticks.toInstant(ticks));
            }
          }
        }
        case BOOLEAN -> {
          if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
            return PropertyValue.of(token == JsonToken.VALUE_TRUE);
          }
        }
        case STRING -> {
          if (token == JsonToken.VALUE_STRING) {
            return PropertyValue.of(decodeText.apply(json.getText()));
          }
        }
        case DOUBLE -> {
          if (token == JsonToken.VALUE_STRING) {
            return PropertyValue.of(Double.parseDouble(json.getText()));
          }
        }
        case GUID -> {
          if (token == JsonToken.VALUE_STRING) {
            String text = json.getText();
            if (text.length() == 36) {
              return PropertyValue.of(UUID.fromString(text));
            }
          }
        }
        case BINARY -> {
          if (token == JsonToken.VALUE_STRING) {
            return PropertyValue.of(HEX.parseHex(json.getText()));
          }
        }
      }
    } catch (IllegalArgumentException e) {
      // not a value of the type (NumberFormatException is one too); refused below
    }
    throw new MalformedRowException(
        "property '" + name + "' of type " + edmType.odataName() + " holds " + describe(json));
  }

  private static String describe(JsonParser json) throws IOException {
    JsonToken token = json.currentToken();
    if (token == null || token.isStructStart() || token.isStructEnd()) {
      return "no value (" + (token == null ? "end of document" : token.asString()) + ")";
    }
    String text = json.getText();
    return token == JsonToken.VALUE_STRING
        ? "the string \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\""
        : text;
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
  public PropertyValue parse(String text) {
    return switch (this) {
      case STRING -> PropertyValue.of(text);
      case INT32 -> PropertyValue.of(Integer.parseInt(text));
      case INT64 -> PropertyValue.of(Long.parseLong(text));
      case DOUBLE -> PropertyValue.of(Double.parseDouble(text));
      case BOOLEAN -> PropertyValue.of(Boolean.parseBoolean(text)); // checked by storedText
      case DATE_TIME -> PropertyValue.of(Ticks.toInstant(Long.parseLong(text)));
      case GUID -> PropertyValue.of(UUID.fromString(text));
      case BINARY -> PropertyValue.of(HEX.parseHex(text));
    };
  }
}
