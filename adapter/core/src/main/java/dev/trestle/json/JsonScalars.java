package dev.trestle.json;

import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmBoolean;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.edm.EdmDouble;
import dev.trestle.edm.EdmGuid;
import dev.trestle.edm.EdmInteger;

/**
 * One JSON scalar read as an EDM type, as the service reads it; RuntimeExceptions mean it does not
 * fit.
 */
final class JsonScalars {
  private JsonScalars() {}

  /**
   * The value {@code text} (the token's text) holds as {@code type}; DateTime out of range is a
   * TableException.
   */
  static PropertyValue parse(EdmType type, JsonToken token, String text) {
    return switch (type) {
      case STRING -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(text);
      }
      case BOOLEAN -> {
        if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
          yield PropertyValue.of(token == JsonToken.VALUE_TRUE);
        }
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(EdmBoolean.parse(text));
      }
      case INT32 -> PropertyValue.of(EdmInteger.parseInt32(integerText(token, text)));
      case INT64 -> PropertyValue.of(EdmInteger.parseInt64(integerText(token, text)));
      case DOUBLE -> {
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
          yield PropertyValue.of(EdmDouble.parseNumber(text));
        }
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(EdmDouble.parse(text));
      }
      case DATE_TIME -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(EdmDateTime.parse(text));
      }
      case GUID -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(EdmGuid.parse(text));
      }
      case BINARY -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(EdmBinary.parse(text));
      }
    };
  }

  /**
   * The type of a value without annotation: string, boolean, Int32 for integers that fit, else
   * Double.
   */
  static EdmType inferred(JsonToken token, String text) {
    return switch (token) {
      case VALUE_STRING -> EdmType.STRING;
      case VALUE_TRUE, VALUE_FALSE -> EdmType.BOOLEAN;
      case VALUE_NUMBER_INT -> fitsInt32(text) ? EdmType.INT32 : EdmType.DOUBLE;
      case VALUE_NUMBER_FLOAT -> EdmType.DOUBLE;
      default -> throw new IllegalStateException("not a JSON scalar: " + token);
    };
  }

  private static boolean fitsInt32(String digits) {
    try {
      Integer.parseInt(digits);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static void requireToken(JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new IllegalArgumentException("expected " + expected);
    }
  }

  /** Integers may come as JSON numbers or strings ({@code "5"}), never as {@code 5.0}. */
  private static String integerText(JsonToken token, String text) {
    if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_STRING) {
      throw new IllegalArgumentException("expected an integer");
    }
    return text;
  }
}
