package dev.trestle.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.json.internal.PropertyJson;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * One entity as one line of JSON (the export and import form, NDJSON): the service's typed format
 * with the keys first, and every property whose type the JSON does not show (all but strings, Int32
 * and booleans) followed by its {@code Name@odata.type}. Exports carry the Timestamp for the
 * entity; reading keeps it on the entity ({@link TableEntity#timestamp()}), which a bulk write may
 * keep (see {@link dev.trestle.BulkWriteOptions#withKeepTimestamps}) and every other write ignores.
 * Lines are read as the service reads a request body.
 */
public final class EntityLines {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private EntityLines() {}

  /** A line that cannot become an entity; the message says why, without the line's content. */
  public static final class MalformedEntityException extends RuntimeException {
    MalformedEntityException(String message) {
      super(message);
    }
  }

  /**
   * @throws MalformedEntityException when the line is not an entity with both keys
   */
  public static TableEntity read(String line) {
    EntityJson.ParsedEntity parsed;
    try {
      parsed = EntityJsonParser.parse(line);
    } catch (Unreadable e) {
      throw new MalformedEntityException(e.lineMessage());
    }
    if (parsed.partitionKey() == null || parsed.rowKey() == null) {
      String missing = parsed.partitionKey() == null ? "PartitionKey" : "RowKey";
      throw new MalformedEntityException(
          Unreadable.of(Unreadable.Reason.KEY_NOT_STRING, missing, null).lineMessage());
    }
    return TableEntity.builder(parsed.partitionKey(), parsed.rowKey())
        .putAll(parsed.properties())
        .timestamp(timestamp(parsed.timestamp()))
        .build();
  }

  /**
   * The line's Timestamp as the parser read it, whatever the whitespace around it; null when the
   * line has none, and refused as any property is when it is not a DateTime.
   */
  private static java.time.Instant timestamp(String text) {
    if (text == null) {
      return null;
    }
    try {
      return EdmDateTime.parse(text);
    } catch (RuntimeException e) {
      throw new MalformedEntityException(
          Unreadable.of(Unreadable.Reason.INVALID_VALUE, "Timestamp", EdmType.DATE_TIME.odataName())
              .lineMessage());
    }
  }

  /** The entity as one line in the form above, without the line break. */
  public static String write(TableEntity entity) {
    StringWriter out = new StringWriter(128);
    try (JsonGenerator gen = JSON.createGenerator(out)) {
      gen.writeStartObject();
      gen.writeStringField("PartitionKey", entity.partitionKey());
      gen.writeStringField("RowKey", entity.rowKey());
      if (entity.timestamp() != null) {
        PropertyJson.writeTimestamp(gen, EdmDateTime.formatSevenDigits(entity.timestamp()));
        PropertyJson.writeAnnotation(gen, "Timestamp", EdmType.DATE_TIME);
      }
      for (Map.Entry<String, PropertyValue> property : entity.properties().entrySet()) {
        PropertyValue value = property.getValue();
        PropertyJson.writeValue(gen, property.getKey(), value);
        if (value.type() != EdmType.STRING
            && value.type() != EdmType.INT32
            && value.type() != EdmType.BOOLEAN) {
          PropertyJson.writeAnnotation(gen, property.getKey(), value.type());
        }
      }
      gen.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
