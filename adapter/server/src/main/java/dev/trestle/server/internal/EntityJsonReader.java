package dev.trestle.server.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads an entity from an OData JSON request body. Annotations ({@code X@odata.type}) type the value they
 * name, wherever they stand; {@code odata.*} keys and a client {@code Timestamp} are ignored; {@code null}
 * values mean "no property". Untyped values are inferred as the service does: string, boolean, Int32 for
 * integers that fit, Double for numbers with a fraction or exponent (and for integers beyond Int32).
 */
final class EntityJsonReader {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private EntityJsonReader() {}

  /** An entity as sent: keys may be null when the body has none (PUT/MERGE take them from the URL). */
  record ParsedEntity(String partitionKey, String rowKey, Map<String, PropertyValue> properties) {}

  /** A raw JSON value kept until every annotation has been seen. */
  private record RawValue(JsonToken token, String text) {}

  static ParsedEntity read(byte[] body) {
    Map<String, RawValue> values = new LinkedHashMap<>();
    Map<String, String> types = new HashMap<>();
    try (JsonParser parser = JSON.createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw invalidJson();
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken valueToken = parser.nextToken();
        int at = name.indexOf('@');
        if (at >= 0) {
          if (name.substring(at + 1).equals("odata.type")) {
            if (valueToken != JsonToken.VALUE_STRING) {
              throw invalidInput("The type annotation of property '" + name.substring(0, at) + "' is not a string.");
            }
            types.put(name.substring(0, at), parser.getText());
          } else {
            parser.skipChildren();
          }
          continue;
        }
        if (name.startsWith("odata.")) {
          parser.skipChildren();
          continue;
        }
        if (valueToken == JsonToken.START_OBJECT || valueToken == JsonToken.START_ARRAY) {
          throw invalidInput("The value of property '" + name + "' is not a primitive value.");
        }
        if (values.containsKey(name)) {
          throw new TableException(TableErrorCode.DUPLICATE_PROPERTIES_SPECIFIED,
              "A property is specified more than one time.");
        }
        values.put(name, new RawValue(valueToken, valueToken == JsonToken.VALUE_NULL ? null : parser.getText()));
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        throw invalidJson();
      }
    } catch (JsonProcessingException e) {
      throw invalidJson();
    } catch (IOException e) {
      throw invalidJson();
    }
    return convert(values, types);
  }

  private static ParsedEntity convert(Map<String, RawValue> values, Map<String, String> types) {
    String partitionKey = null;
    String rowKey = null;
    Map<String, PropertyValue> properties = new LinkedHashMap<>();
    for (Map.Entry<String, RawValue> entry : values.entrySet()) {
      String name = entry.getKey();
      RawValue raw = entry.getValue();
      if (name.equals("Timestamp") || raw.token() == JsonToken.VALUE_NULL) {
        continue;
      }
      if (name.equals("PartitionKey") || name.equals("RowKey")) {
        String type = types.get(name);
        if (raw.token() != JsonToken.VALUE_STRING || (type != null && !type.equals("Edm.String"))) {
          throw new TableException(TableErrorCode.PRIMARY_KEY_PROPERTY_IS_INVALID_TYPE,
              "The value of property '" + name + "' must be a string.");
        }
        if (name.equals("PartitionKey")) {
          partitionKey = raw.text();
        } else {
          rowKey = raw.text();
        }
        continue;
      }
      properties.put(name, value(name, raw, types.get(name)));
    }
    return new ParsedEntity(partitionKey, rowKey, properties);
  }

  private static PropertyValue value(String name, RawValue raw, String annotation) {
    EdmType type = annotation == null ? inferred(raw) : EdmType.fromOdataName(annotation);
    try {
      return JsonValues.parse(type, raw.token(), raw.text());
    } catch (TableException e) {
      throw e;
    } catch (RuntimeException e) {
      // Azure's message is the first sentence alone; clients match on it, the second says what was wrong.
      throw invalidInput("An error occurred while processing this request. The value of property '" + name
          + "' is not a valid " + type.odataName() + ".");
    }
  }

  private static EdmType inferred(RawValue raw) {
    return switch (raw.token()) {
      case VALUE_STRING -> EdmType.STRING;
      case VALUE_TRUE, VALUE_FALSE -> EdmType.BOOLEAN;
      case VALUE_NUMBER_INT -> fitsInt32(raw.text()) ? EdmType.INT32 : EdmType.DOUBLE;
      case VALUE_NUMBER_FLOAT -> EdmType.DOUBLE;
      default -> throw invalidInput("Unsupported JSON value.");
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

  static TableException invalidJson() {
    return invalidInput("The request body is not a valid JSON object.");
  }

  static TableException invalidInput(String message) {
    return new TableException(TableErrorCode.INVALID_INPUT, message);
  }
}
