package dev.trestle.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.json.Unreadable.Reason;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads one JSON object as an entity. Annotations ({@code X@odata.type}) type the value they name,
 * wherever they stand; {@code odata.*} keys and a client {@code Timestamp} are ignored; {@code
 * null} values mean "no property". Untyped values are inferred as the service does ({@link
 * JsonScalars#inferred}).
 */
final class EntityJsonParser {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private EntityJsonParser() {}

  /** A raw JSON value kept until every annotation has been seen. */
  private record RawValue(JsonToken token, String text) {}

  /** The parser over {@code json}, a byte[] or a String. */
  private interface Source {
    JsonParser open(JsonFactory factory) throws IOException;
  }

  static EntityJson.ParsedEntity parse(byte[] json) {
    return parse(factory -> factory.createParser(json));
  }

  static EntityJson.ParsedEntity parse(String json) {
    return parse(factory -> factory.createParser(json));
  }

  private static EntityJson.ParsedEntity parse(Source source) {
    Map<String, RawValue> values = new LinkedHashMap<>();
    Map<String, String> types = new HashMap<>();
    try (JsonParser parser = source.open(JSON)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw Unreadable.of(Reason.NOT_AN_OBJECT, null, null);
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken valueToken = parser.nextToken();
        int at = name.indexOf('@');
        if (at >= 0) {
          if (name.substring(at + 1).equals("odata.type")) {
            if (valueToken != JsonToken.VALUE_STRING) {
              throw Unreadable.of(Reason.ANNOTATION_NOT_STRING, name.substring(0, at), null);
            }
            // a property typed twice is as ambiguous as a property given twice
            if (types.put(name.substring(0, at), parser.getText()) != null) {
              throw Unreadable.of(Reason.DUPLICATE_PROPERTY, name.substring(0, at), null);
            }
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
          throw Unreadable.of(
              Reason.NESTED_VALUE, name, valueToken == JsonToken.START_OBJECT ? "object" : "array");
        }
        if (values.containsKey(name)) {
          throw Unreadable.of(Reason.DUPLICATE_PROPERTY, name, null);
        }
        values.put(
            name,
            new RawValue(valueToken, valueToken == JsonToken.VALUE_NULL ? null : parser.getText()));
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        throw Unreadable.of(Reason.NOT_JSON, null, "not one JSON object");
      }
    } catch (JsonProcessingException e) {
      throw Unreadable.of(Reason.NOT_JSON, null, e.getOriginalMessage());
    } catch (IOException e) {
      throw Unreadable.of(Reason.NOT_JSON, null, e.getMessage());
    }
    return convert(values, types);
  }

  private static EntityJson.ParsedEntity convert(
      Map<String, RawValue> values, Map<String, String> types) {
    String partitionKey = null;
    String rowKey = null;
    String timestamp = null;
    Map<String, PropertyValue> properties = new LinkedHashMap<>();
    for (Map.Entry<String, RawValue> entry : values.entrySet()) {
      String name = entry.getKey();
      RawValue raw = entry.getValue();
      if (raw.token() == JsonToken.VALUE_NULL) {
        continue;
      }
      if (name.equals("Timestamp")) {
        timestamp = raw.text();
        continue;
      }
      if (name.equals("PartitionKey") || name.equals("RowKey")) {
        String type = types.get(name);
        if (raw.token() != JsonToken.VALUE_STRING
            || (type != null && !type.equals(EdmType.STRING.odataName()))) {
          throw Unreadable.of(Reason.KEY_NOT_STRING, name, null);
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
    return new EntityJson.ParsedEntity(partitionKey, rowKey, properties, timestamp);
  }

  private static PropertyValue value(String name, RawValue raw, String annotation) {
    EdmType type;
    try {
      type =
          annotation == null
              ? JsonScalars.inferred(raw.token(), raw.text())
              : EdmType.fromOdataName(annotation);
    } catch (TableException e) {
      throw Unreadable.of(Reason.UNKNOWN_TYPE, name, annotation, e);
    }
    try {
      return JsonScalars.parse(type, raw.token(), raw.text());
    } catch (TableException e) {
      if (e.errorCode() == TableErrorCode.OUT_OF_RANGE_INPUT) {
        throw Unreadable.of(Reason.OUT_OF_RANGE, name, type.odataName(), e);
      }
      throw e;
    } catch (RuntimeException e) {
      throw Unreadable.of(Reason.INVALID_VALUE, name, type.odataName());
    }
  }
}
