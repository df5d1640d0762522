package dev.trestle.json.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import dev.trestle.EdmType;
import dev.trestle.json.MetadataLevel;
import dev.trestle.model.PropertyNames;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Writes an entity's keys, Timestamp and properties at a metadata level, each type annotation just
 * before its value: the one home of that layout, for decoded entities and stored rows alike.
 */
public final class EntityRowJson {
  private static final Set<String> SYSTEM = Set.of("PartitionKey", "RowKey", "Timestamp");

  private EntityRowJson() {}

  /**
   * {@code selected} null writes every property; otherwise only those, and a selected property the
   * entity lacks as an explicit null, as Azure does. A selected name no property can have ({@code
   * odata.etag}, {@code X@odata.type}) gets no null: it would repeat a key the object already has.
   */
  public static void writeFields(
      JsonGenerator gen, EntityRow row, MetadataLevel level, Set<String> selected)
      throws IOException {
    if (selected == null || selected.contains("PartitionKey")) {
      gen.writeStringField("PartitionKey", row.partitionKey());
    }
    if (selected == null || selected.contains("RowKey")) {
      gen.writeStringField("RowKey", row.rowKey());
    }
    String timestamp = row.timestamp();
    if (timestamp != null && (selected == null || selected.contains("Timestamp"))) {
      if (level == MetadataLevel.FULL) {
        PropertyJson.writeAnnotation(gen, "Timestamp", EdmType.DATE_TIME);
      }
      PropertyJson.writeTimestamp(gen, timestamp);
    }
    Properties properties = new Properties(gen, level, selected == null ? null : new HashSet<>());
    row.properties(selected, properties);
    if (selected != null) {
      for (String name : selected) {
        if (!SYSTEM.contains(name)
            && !properties.written.contains(name)
            && PropertyNames.isValid(name)) {
          gen.writeNullField(name);
        }
      }
    }
  }

  /** Writes each property it is handed, noting the names when a selection needs them. */
  private record Properties(JsonGenerator gen, MetadataLevel level, Set<String> written)
      implements PropertySink {
    @Override
    public void property(String name, EdmType type, String wire) throws IOException {
      if (PropertyJson.annotated(type, wire, level)) {
        PropertyJson.writeAnnotation(gen, name, type);
      }
      PropertyJson.writeValue(gen, name, type, wire);
      if (written != null) {
        written.add(name);
      }
    }

    @Override
    public void utf8(String name, EdmType type, byte[] text, int offset, int length)
        throws IOException {
      if (!(gen instanceof UTF8JsonGenerator)) {
        // a generator writing characters takes no bytes
        PropertySink.super.utf8(name, type, text, offset, length);
        return;
      }
      if (PropertyJson.annotated(type, text, offset, length, level)) {
        PropertyJson.writeAnnotation(gen, name, type);
      }
      PropertyJson.writeValue(gen, name, type, text, offset, length);
      if (written != null) {
        written.add(name);
      }
    }

    @Override
    public void text(String name, EdmType type, char[] text, int offset, int length)
        throws IOException {
      if (PropertyJson.annotated(type, text, offset, length, level)) {
        PropertyJson.writeAnnotation(gen, name, type);
      }
      PropertyJson.writeValue(gen, name, type, text, offset, length);
      if (written != null) {
        written.add(name);
      }
    }
  }
}
