package dev.trestle.json.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.edm.EdmDouble;
import dev.trestle.edm.EdmGuid;
import dev.trestle.edm.EdmInteger;
import dev.trestle.json.MetadataLevel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One property as JSON: its value's wire text, how that text is written, and its {@code
 * @odata.type} annotation. The wire text is the value as the response shows it (a string's
 * characters, an Int32's or a finite Double's digits, {@code NaN}, {@code true}, a DateTime's
 * trimmed ISO form, a Binary's base64), so a value read from the store can be written without
 * becoming a {@link PropertyValue}.
 */
public final class PropertyJson {
  public static final String TYPE_SUFFIX = "@odata.type";

  /**
   * Annotation names by property name, so that a page does not build {@code Name@odata.type} again
   * for every value. Shared without locks: a slot holds a whole String or another one.
   */
  private static final String[] ANNOTATIONS = new String[512];

  private PropertyJson() {}

  /** The wire text of a value. */
  public static String wire(PropertyValue value) {
    return switch (value) {
      case PropertyValue.StringValue s -> s.value();
      case PropertyValue.Int32Value i -> Integer.toString(i.value());
      case PropertyValue.Int64Value l -> EdmInteger.formatInt64(l.value());
      case PropertyValue.DoubleValue d -> {
        String special = EdmDouble.special(d.value());
        yield special != null ? special : EdmDouble.format(d.value());
      }
      case PropertyValue.BooleanValue b -> Boolean.toString(b.value());
      case PropertyValue.DateTimeValue t -> EdmDateTime.format(t.value());
      case PropertyValue.GuidValue g -> EdmGuid.format(g.value());
      case PropertyValue.BinaryValue b -> EdmBinary.format(b.value());
    };
  }

  /**
   * Whether a value carries its type at {@code level}: only where JSON cannot tell it, at minimal
   * and full metadata alike, as Azure writes them (recorded answers of the service): the
   * string-borne types, and a Double that is NaN or infinite (a string); never a string, an Int32,
   * a Boolean or a finite Double (written with a decimal point or an exponent).
   */
  public static boolean annotated(EdmType type, String wire, MetadataLevel level) {
    return switch (type) {
      case STRING, INT32, BOOLEAN -> false; // as writeString assumes for strings
      case DOUBLE -> level != MetadataLevel.NONE && isSpecialDouble(wire);
      case INT64, DATE_TIME, GUID, BINARY -> level != MetadataLevel.NONE;
    };
  }

  /** The same for a wire text that is a run of characters. */
  public static boolean annotated(
      EdmType type, char[] text, int offset, int length, MetadataLevel level) {
    return type == EdmType.DOUBLE
        ? level != MetadataLevel.NONE && isSpecialDouble(text, offset, length)
        : annotated(type, "", level);
  }

  /** The same for a wire text that is a run of UTF-8 bytes. */
  public static boolean annotated(
      EdmType type, byte[] text, int offset, int length, MetadataLevel level) {
    return type == EdmType.DOUBLE
        ? level != MetadataLevel.NONE && isSpecialDouble(text, offset, length)
        : annotated(type, "", level);
  }

  public static void writeAnnotation(JsonGenerator gen, String name, EdmType type)
      throws IOException {
    gen.writeStringField(annotationName(name), type.odataName());
  }

  private static String annotationName(String name) {
    int slot = name.hashCode() & (ANNOTATIONS.length - 1);
    String cached = ANNOTATIONS[slot];
    if (cached != null
        && cached.length() == name.length() + TYPE_SUFFIX.length()
        && cached.startsWith(name)) {
      return cached;
    }
    String annotation = name + TYPE_SUFFIX;
    ANNOTATIONS[slot] = annotation;
    return annotation;
  }

  /** Timestamp always has seven fractional digits, as in the ETag. */
  public static void writeTimestamp(JsonGenerator gen, String sevenDigits) throws IOException {
    gen.writeStringField("Timestamp", sevenDigits);
  }

  /** A property's name and value. */
  public static void writeValue(JsonGenerator gen, String name, PropertyValue value)
      throws IOException {
    writeValue(gen, name, value.type(), wire(value));
  }

  /** A property's name and value, from its type and wire text. */
  public static void writeValue(JsonGenerator gen, String name, EdmType type, String wire)
      throws IOException {
    gen.writeFieldName(name);
    switch (type) {
      case INT32 -> gen.writeNumber(wire);
      case DOUBLE -> {
        if (isSpecialDouble(wire)) {
          gen.writeString(wire);
        } else {
          gen.writeNumber(wire);
        }
      }
      case BOOLEAN -> gen.writeBoolean(wire.equals("true"));
      case STRING, INT64, DATE_TIME, GUID, BINARY -> gen.writeString(wire);
    }
  }

  /** A property's name and value, from its type and wire text as a run of characters. */
  public static void writeValue(
      JsonGenerator gen, String name, EdmType type, char[] text, int offset, int length)
      throws IOException {
    gen.writeFieldName(name);
    switch (type) {
      case INT32 -> gen.writeNumber(text, offset, length);
      case DOUBLE -> {
        if (isSpecialDouble(text, offset, length)) {
          gen.writeString(text, offset, length);
        } else {
          gen.writeNumber(text, offset, length);
        }
      }
      case BOOLEAN -> gen.writeBoolean(length == 4 && text[offset] == 't');
      case STRING, INT64, DATE_TIME, GUID, BINARY -> gen.writeString(text, offset, length);
    }
  }

  /**
   * A property's name and value, from its type and wire text as a run of UTF-8 bytes without JSON
   * escapes or control characters, for a generator writing UTF-8: a string's bytes are copied as
   * they are, which is what the generator's own escaping would write for them.
   */
  public static void writeValue(
      JsonGenerator gen, String name, EdmType type, byte[] text, int offset, int length)
      throws IOException {
    switch (type) {
      case INT32, DOUBLE -> {
        // digits and signs only (a special double's text is a string below)
        if (type == EdmType.DOUBLE && isSpecialDouble(text, offset, length)) {
          gen.writeFieldName(name);
          gen.writeRawUTF8String(text, offset, length);
        } else {
          char[] digits = new char[length];
          for (int i = 0; i < length; i++) {
            digits[i] = (char) text[offset + i];
          }
          writeValue(gen, name, type, digits, 0, length);
        }
      }
      case BOOLEAN -> writeValue(gen, name, type, text[offset] == 't' ? "true" : "false");
      case STRING, INT64, DATE_TIME, GUID, BINARY -> {
        gen.writeFieldName(name);
        gen.writeRawUTF8String(text, offset, length);
      }
    }
  }

  private static boolean isSpecialDouble(byte[] text, int offset, int length) {
    byte last = length == 0 ? (byte) '0' : text[offset + length - 1];
    return (last == 'N' || last == 'y')
        && isSpecialDouble(new String(text, offset, length, StandardCharsets.ISO_8859_1));
  }

  /** NaN and the infinities travel as JSON strings ({@link EdmDouble#special}). */
  private static boolean isSpecialDouble(String wire) {
    return wire.equals("NaN") || wire.equals("Infinity") || wire.equals("-Infinity");
  }

  private static boolean isSpecialDouble(char[] text, int offset, int length) {
    // every special text ends in N or y, no finite double's text does
    char last = length == 0 ? '0' : text[offset + length - 1];
    return (last == 'N' || last == 'y') && isSpecialDouble(new String(text, offset, length));
  }
}
