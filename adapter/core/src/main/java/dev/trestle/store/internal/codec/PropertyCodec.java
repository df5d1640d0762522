package dev.trestle.store.internal.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import dev.trestle.PropertyValue;
import dev.trestle.json.internal.PropertySink;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * Writes an entity's user properties as one JSON object, {@code {"Name": [tag, value, position],
 * ...}}, and reads it back. The type tag lets SQL compare only values of the filter literal's type;
 * the position keeps the order the properties were given in, which PostgreSQL's jsonb does not.
 * String values pass through the dialect's text encoding so that SQL compares them in UTF-16 order.
 */
public final class PropertyCodec {
  /**
   * Recycles its buffers through one shared pool: requests run on virtual threads, where Jackson's
   * default per-thread pool would start empty for nearly every request.
   */
  public static final JsonFactory JSON =
      JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build();

  /**
   * Whether the dialect decodes these stored characters to themselves ({@link
   * dev.trestle.store.internal.database.Dialect#decodesAsIs}).
   */
  @FunctionalInterface
  public interface PlainText {
    boolean test(char[] stored, int offset, int length);
  }

  /** The same test for stored text as UTF-8 bytes. */
  @FunctionalInterface
  public interface PlainUtf8 {
    boolean test(byte[] stored, int offset, int length);
  }

  private final UnaryOperator<String> encodeText;
  private final UnaryOperator<String> decodeText;
  private final StoredProperties stored;
  private final StoredDocumentDecoder decoder;

  /** A codec whose strings are always decoded through {@code decodeText}. */
  public PropertyCodec(UnaryOperator<String> encodeText, UnaryOperator<String> decodeText) {
    this(
        encodeText,
        decodeText,
        (stored, offset, length) -> false,
        (stored, offset, length) -> false);
  }

  /** A codec that uses stored strings as they are where {@code plainText} says they decode so. */
  public PropertyCodec(
      UnaryOperator<String> encodeText, UnaryOperator<String> decodeText, PlainText plainText) {
    this(encodeText, decodeText, plainText, (stored, offset, length) -> false);
  }

  /** The same, with the test for stored strings as UTF-8 bytes. */
  public PropertyCodec(
      UnaryOperator<String> encodeText,
      UnaryOperator<String> decodeText,
      PlainText plainText,
      PlainUtf8 plainUtf8) {
    this.encodeText = encodeText;
    this.decodeText = decodeText;
    this.stored = new StoredProperties(decodeText, plainText, plainUtf8);
    this.decoder = new StoredDocumentDecoder(decodeText);
  }

  public String encode(Map<String, PropertyValue> properties) {
    String plain = encodePlain(properties);
    return plain != null ? plain : encodeEscaping(properties);
  }

  /**
   * The document exactly as {@link #encodeEscaping} writes it, appended directly when no name or
   * string needs a JSON escape (nearly always); null otherwise. Jackson's escaping looks at every
   * character on its own, which made it most of a transaction's encoding cost.
   */
  private String encodePlain(Map<String, PropertyValue> properties) {
    StringBuilder out = new StringBuilder(128 + properties.size() * 48);
    out.append('{');
    int position = 0;
    for (Map.Entry<String, PropertyValue> property : properties.entrySet()) {
      String name = property.getKey();
      PropertyValue value = property.getValue();
      StoredType type = StoredType.of(value.type());
      String text = StoredType.text(value);
      if (type == StoredType.STRING) {
        text = encodeText.apply(text);
      }
      if (!needsNoEscape(name) || (type == StoredType.STRING && !needsNoEscape(text))) {
        return null;
      }
      if (position > 0) {
        out.append(',');
      }
      out.append('"').append(name).append("\":[\"").append(type.tag).append("\",");
      if (type.isJsonScalar()) {
        out.append(text);
      } else {
        // the canonical text of the other types (numbers, GUIDs, hex) never needs an escape
        out.append('"').append(text).append('"');
      }
      out.append(',').append(position++).append(']');
    }
    return out.append('}').toString();
  }

  /** Whether JSON writes the text as it is: no quote, backslash or control character. */
  private static boolean needsNoEscape(String text) {
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /** The document written by Jackson, escaping what JSON needs escaped. */
  String encodeEscaping(Map<String, PropertyValue> properties) {
    StringWriter out = new StringWriter(64 + properties.size() * 24);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      int position = 0;
      for (Map.Entry<String, PropertyValue> property : properties.entrySet()) {
        json.writeFieldName(property.getKey());
        json.writeStartArray();
        json.writeString(StoredType.of(property.getValue().type()).tag);
        writeValue(json, property.getValue());
        json.writeNumber(position++);
        json.writeEndArray();
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * A document contained (jsonb {@code @>}) in the stored properties of every entity that holds all
   * these values: each name maps to an array of its values, each written exactly as {@link #encode}
   * writes it. Type tags are left out: every property of a type shares its tag, so in a GIN index
   * the tag selects nothing and costs a long posting list. Containment is only a necessary
   * condition (array containment ignores order, and the stored array also holds the tag and the
   * position), so the exact comparison must still decide.
   */
  public String encodeContained(Map<String, List<PropertyValue>> values) {
    StringWriter out = new StringWriter(16 + values.size() * 32);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      for (Map.Entry<String, List<PropertyValue>> property : values.entrySet()) {
        json.writeFieldName(property.getKey());
        json.writeStartArray();
        for (PropertyValue value : property.getValue()) {
          writeValue(json, value);
        }
        json.writeEndArray();
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private void writeValue(JsonGenerator json, PropertyValue value) throws IOException {
    StoredType type = StoredType.of(value.type());
    String text = StoredType.text(value);
    if (type == StoredType.STRING) {
      json.writeString(encodeText.apply(text));
    } else if (type.isJsonScalar()) {
      json.writeRawValue(text);
    } else {
      json.writeString(text);
    }
  }

  /** All properties, in the order they were written. */
  public Map<String, PropertyValue> decode(String document) {
    return decode(document, null);
  }

  /**
   * All properties of a stored row, in the order they were written; a row Trestle cannot read fails
   * naming the table and keys ({@link MalformedRowException}).
   */
  public Map<String, PropertyValue> decodeRow(
      String document, String table, String partitionKey, String rowKey) {
    try {
      return decode(document, null);
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
  }

  /** The properties named in {@code select} (all when null), in the order they were written. */
  public Map<String, PropertyValue> decode(String document, Collection<String> select) {
    Map<String, PropertyValue> properties = new LinkedHashMap<>();
    decode(document, select, properties::put);
    return properties;
  }

  /**
   * Hands the properties named in {@code select} (all when null) to {@code put} in the order they
   * were written (into an entity's builder, without a map of their own): read by hand ({@link
   * StoredDocumentDecoder}), or by Jackson when the document is not in the form the hand-written
   * read accepts.
   */
  public void decode(
      String document, Collection<String> select, BiConsumer<String, PropertyValue> put) {
    if (!decoder.decode(document.toCharArray(), select, put)) {
      decodeWithJackson(document, select).forEach(put);
    }
  }

  /** The same through Jackson alone: what decides every document the hand-written read leaves. */
  Map<String, PropertyValue> decodeWithJackson(String document, Collection<String> select) {
    List<Positioned> found = new ArrayList<>();
    try (JsonParser json = JSON.createParser(document)) {
      expect(json.nextToken(), JsonToken.START_OBJECT);
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        expect(json.nextToken(), JsonToken.START_ARRAY);
        if (select != null && !select.contains(name)) {
          json.skipChildren();
          continue;
        }
        json.nextToken();
        StoredType type = tag(json);
        json.nextToken();
        PropertyValue value = type.readStored(json, name, decodeText);
        int position =
            json.nextToken() == JsonToken.VALUE_NUMBER_INT ? json.getIntValue() : found.size();
        while (json.currentToken() != JsonToken.END_ARRAY) {
          json.nextToken();
        }
        found.add(new Positioned(position, name, value));
      }
    } catch (IOException e) {
      throw new MalformedRowException(e.getMessage(), e);
    }
    found.sort((a, b) -> Integer.compare(a.position, b.position));
    Map<String, PropertyValue> properties = new LinkedHashMap<>(found.size() * 2);
    for (Positioned p : found) {
      properties.put(p.name, p.value);
    }
    return properties;
  }

  /**
   * Hands the properties named in {@code select} (all when null) to {@code sink} as wire text, in
   * the order they were written, without decoding them into values.
   */
  public void transcode(String document, Set<String> select, PropertySink sink) throws IOException {
    stored.transcode(document, select, sink);
  }

  /** The same from the document's UTF-8 bytes, as PostgreSQL sends a row. */
  public void transcode(byte[] utf8, Set<String> select, PropertySink sink) throws IOException {
    stored.transcode(utf8, select, sink);
  }

  /** The type of the tag under the parser, read without making a String of it. */
  private static StoredType tag(JsonParser json) throws IOException {
    if (json.currentToken() == JsonToken.VALUE_STRING && json.getTextLength() == 1) {
      StoredType type = StoredType.ofTag(json.getTextCharacters()[json.getTextOffset()]);
      if (type != null) {
        return type;
      }
    }
    return StoredType.ofTag(json.getText());
  }

  static void expect(JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new MalformedRowException(
          "its properties are not in Trestle's format: expected " + expected + ", found " + actual);
    }
  }

  private record Positioned(int position, String name, PropertyValue value) {}
}
