package dev.trestle.cli.transfer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;

/**
 * One entity as one line of JSON, in the Table service's own typed format: strings, Int32 and booleans as
 * plain JSON, every other type with a {@code Name@odata.type} annotation and the value as the service writes
 * it (Int64 as a string, Double as a number or "NaN"/"Infinity"/"-Infinity", DateTime with 7 fractional
 * digits, Binary in base64). Exports carry the Timestamp for information; imports ignore it, as the store
 * assigns its own.
 */
public final class EntityJson {
  private static final String TYPE_SUFFIX = "@odata.type";
  private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
      .appendFraction(ChronoField.NANO_OF_SECOND, 7, 7, true)
      .appendLiteral('Z')
      .toFormatter()
      .withZone(ZoneOffset.UTC);

  private final ObjectMapper mapper = new ObjectMapper();

  /** A line that cannot become an entity; the message says why, without the line's content. */
  public static final class MalformedEntityException extends RuntimeException {
    MalformedEntityException(String message) {
      super(message);
    }
  }

  public String write(TableEntity entity) {
    ObjectNode node = mapper.createObjectNode();
    node.put("PartitionKey", entity.partitionKey());
    node.put("RowKey", entity.rowKey());
    if (entity.timestamp() != null) {
      node.put("Timestamp", DATE_TIME.format(entity.timestamp()));
      node.put("Timestamp" + TYPE_SUFFIX, EdmType.DATE_TIME.odataName());
    }
    for (Map.Entry<String, PropertyValue> property : entity.properties().entrySet()) {
      writeProperty(node, property.getKey(), property.getValue());
    }
    try {
      return mapper.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A tree of plain values always serialises", e);
    }
  }

  private static void writeProperty(ObjectNode node, String name, PropertyValue value) {
    switch (value) {
      case PropertyValue.StringValue s -> node.put(name, s.value());
      case PropertyValue.Int32Value i -> node.put(name, i.value());
      case PropertyValue.BooleanValue b -> node.put(name, b.value());
      case PropertyValue.Int64Value l -> node.put(name, Long.toString(l.value()));
      case PropertyValue.DoubleValue d -> {
        double v = d.value();
        if (Double.isNaN(v)) {
          node.put(name, "NaN");
        } else if (Double.isInfinite(v)) {
          node.put(name, v > 0 ? "Infinity" : "-Infinity");
        } else {
          node.put(name, v);
        }
      }
      case PropertyValue.DateTimeValue t -> node.put(name, DATE_TIME.format(t.value()));
      case PropertyValue.GuidValue g -> node.put(name, g.value().toString());
      case PropertyValue.BinaryValue b -> node.put(name, Base64.getEncoder().encodeToString(b.value()));
    }
    if (value.type() != EdmType.STRING && value.type() != EdmType.INT32 && value.type() != EdmType.BOOLEAN) {
      node.put(name + TYPE_SUFFIX, value.type().odataName());
    }
  }

  public TableEntity read(String line) {
    JsonNode node;
    try {
      node = mapper.readTree(line);
    } catch (JsonProcessingException e) {
      throw new MalformedEntityException("not JSON (" + e.getOriginalMessage() + ")");
    }
    if (node == null || !node.isObject()) {
      throw new MalformedEntityException("not a JSON object");
    }
    TableEntity.Builder builder = TableEntity.builder(key(node, "PartitionKey"), key(node, "RowKey"));
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      if (isSystemOrAnnotation(name)) {
        continue;
      }
      JsonNode type = node.get(name + TYPE_SUFFIX);
      PropertyValue value = readValue(name, field.getValue(), type == null ? null : type.asText());
      if (value != null) {
        builder.put(name, value);
      }
    }
    return builder.build();
  }

  private static boolean isSystemOrAnnotation(String name) {
    return name.equals("PartitionKey") || name.equals("RowKey") || name.equals("Timestamp")
        || name.startsWith("odata.") || name.contains("@");
  }

  private static String key(JsonNode node, String name) {
    JsonNode key = node.get(name);
    if (key == null || !key.isTextual()) {
      throw new MalformedEntityException(name + " is missing or not a string");
    }
    return key.asText();
  }

  /** Reads a value as the service does: the annotation decides, else the JSON type (a number without type is Int32 or Double). */
  private static PropertyValue readValue(String name, JsonNode json, String odataType) {
    if (json.isNull()) {
      return null;
    }
    EdmType type;
    try {
      type = odataType != null ? EdmType.fromOdataName(odataType) : inferred(name, json);
    } catch (TableException e) {
      throw new MalformedEntityException("property '" + name + "' has unknown type '" + odataType + "'");
    }
    try {
      return switch (type) {
        case STRING -> PropertyValue.of(text(name, json));
        case INT32 -> PropertyValue.of(json.isInt() ? json.intValue() : Integer.parseInt(text(name, json)));
        case INT64 -> PropertyValue.of(json.isIntegralNumber() && json.canConvertToLong()
            ? json.longValue() : Long.parseLong(text(name, json)));
        case DOUBLE -> PropertyValue.of(json.isNumber() ? json.doubleValue() : parseDouble(text(name, json)));
        case BOOLEAN -> PropertyValue.of(bool(name, json));
        case DATE_TIME -> PropertyValue.of(Instant.parse(text(name, json)));
        case GUID -> PropertyValue.of(UUID.fromString(text(name, json)));
        case BINARY -> PropertyValue.of(Base64.getDecoder().decode(text(name, json)));
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new MalformedEntityException("property '" + name + "' is not a valid " + type.odataName());
    } catch (IllegalArgumentException e) {
      throw new MalformedEntityException("property '" + name + "' is not a valid " + type.odataName());
    }
  }

  private static EdmType inferred(String name, JsonNode json) {
    if (json.isTextual()) {
      return EdmType.STRING;
    }
    if (json.isBoolean()) {
      return EdmType.BOOLEAN;
    }
    if (json.isInt()) {
      return EdmType.INT32;
    }
    if (json.isNumber()) {
      return EdmType.DOUBLE;
    }
    throw new MalformedEntityException("property '" + name + "' is a JSON " + json.getNodeType().name().toLowerCase()
        + "; the Table model has no nested values");
  }

  private static String text(String name, JsonNode json) {
    if (!json.isTextual()) {
      throw new MalformedEntityException("property '" + name + "' must be a JSON string for its type");
    }
    return json.asText();
  }

  private static boolean bool(String name, JsonNode json) {
    if (!json.isBoolean()) {
      throw new MalformedEntityException("property '" + name + "' must be true or false");
    }
    return json.booleanValue();
  }

  private static double parseDouble(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity", "INF" -> Double.POSITIVE_INFINITY;
      case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }
}
