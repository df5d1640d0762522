package dev.trestle.json;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.json.internal.EntityRow;
import dev.trestle.json.internal.EntityRowJson;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * The entity JSON format of the Table service, as request and response bodies: reading is the
 * service's (annotations anywhere, untyped values inferred, its error codes), writing is at a
 * metadata level in Azure's key order. {@link EntityLines} is the same format, one entity per line.
 */
public final class EntityJson {
  private EntityJson() {}

  /**
   * An entity as sent: keys may be null when the body has none (PUT/MERGE take them from the URL).
   */
  /**
   * @param timestamp the text of the body's {@code Timestamp} (null when absent or null), which a
   *     request ignores and an import may keep
   */
  public record ParsedEntity(
      String partitionKey,
      String rowKey,
      Map<String, PropertyValue> properties,
      String timestamp) {}

  /**
   * Reads a request body. {@code Timestamp} and {@code odata.*} keys are ignored, {@code null}
   * means no property.
   *
   * @throws TableException with the service's code: {@code InvalidInput}, {@code OutOfRangeInput},
   *     {@code DuplicatePropertiesSpecified} or {@code PrimaryKeyPropertyIsInvalidType}
   */
  public static ParsedEntity read(byte[] body) {
    try {
      return EntityJsonParser.parse(body);
    } catch (Unreadable e) {
      throw e.toServiceError();
    }
  }

  /** The service's answer to a body that is not one JSON object (an entity's or a table's). */
  public static TableException notAJsonObject() {
    return new TableException(
        TableErrorCode.INVALID_INPUT, "The request body is not a valid JSON object.");
  }

  /**
   * Writes an entity's keys, Timestamp and properties (after any {@code odata.*} keys the caller
   * wrote) at {@code level}, each type annotation just before its value. {@code selected} null
   * writes every property; otherwise only those, and a selected property the entity lacks as an
   * explicit null, as Azure does.
   */
  public static void writeFields(
      JsonGenerator gen, TableEntity entity, MetadataLevel level, Set<String> selected)
      throws IOException {
    EntityRowJson.writeFields(gen, EntityRow.of(entity), level, selected);
  }
}
