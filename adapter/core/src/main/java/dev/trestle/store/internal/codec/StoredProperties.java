package dev.trestle.store.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.json.internal.PropertySink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Hands the properties of a stored document ({@link PropertyCodec}) to a sink as wire text, in the
 * order they were written, without building a value for any of them: one read of the stored JSON
 * ({@link StoredDocumentScanner}, or Jackson for what it leaves), and a sort of positions only when
 * the database reordered the keys (PostgreSQL's jsonb does, H2 keeps the text as written). A value
 * whose wire text is its stored text (a string without escapes that the dialect stores as it is, a
 * number, a GUID) goes to the sink as a slice of the document's characters, never copied into a
 * String.
 */
final class StoredProperties {
  private static final HexFormat HEX = HexFormat.of();

  private final UnaryOperator<String> decodeText;
  private final PropertyCodec.PlainText plainText;
  private final StoredDocumentScanner scanner;
  private final StoredUtf8Scanner utf8Scanner;

  StoredProperties(
      UnaryOperator<String> decodeText,
      PropertyCodec.PlainText plainText,
      PropertyCodec.PlainUtf8 plainUtf8) {
    this.decodeText = decodeText;
    this.plainText = plainText;
    this.scanner = new StoredDocumentScanner(decodeText, plainText);
    this.utf8Scanner = new StoredUtf8Scanner(decodeText, plainUtf8);
  }

  /**
   * The same from the document's UTF-8 bytes, which stay the caller's: a document the byte scanner
   * leaves is decoded and read as characters, so that it answers (or fails) exactly as text does.
   */
  void transcode(byte[] utf8, Set<String> select, PropertySink sink) throws IOException {
    Found found = new Found(utf8);
    if (utf8Scanner.scan(utf8, select, found)) {
      found.emit(sink);
    } else {
      transcode(new String(utf8, StandardCharsets.UTF_8), select, sink);
    }
  }

  void transcode(String document, Set<String> select, PropertySink sink) throws IOException {
    // Slices of these characters stay valid until every property has gone to the sink.
    char[] chars = document.toCharArray();
    Found found = new Found(chars);
    if (!scanner.scan(chars, select, found)) {
      found.clear();
      parse(chars, select, found);
    }
    found.emit(sink);
  }

  /** The same through Jackson alone: what decides every document the scanner leaves. */
  void transcodeWithJackson(String document, Set<String> select, PropertySink sink)
      throws IOException {
    char[] chars = document.toCharArray();
    Found found = new Found(chars);
    parse(chars, select, found);
    found.emit(sink);
  }

  private void parse(char[] chars, Set<String> select, Found found) throws IOException {
    // The parser reads these characters in place, so a string token without escapes is a slice of
    // them.
    try (JsonParser json = PropertyCodec.JSON.createParser(chars, 0, chars.length)) {
      parse(json, chars, select, found);
    } catch (JsonProcessingException e) {
      throw new MalformedRowException("its properties are not JSON: " + e.getOriginalMessage(), e);
    }
  }

  private void parse(JsonParser json, char[] chars, Set<String> select, Found found)
      throws IOException {
    PropertyCodec.expect(json.nextToken(), JsonToken.START_OBJECT);
    while (json.nextToken() == JsonToken.FIELD_NAME) {
      String name = json.currentName();
      PropertyCodec.expect(json.nextToken(), JsonToken.START_ARRAY);
      if (select != null && !select.contains(name)) {
        json.skipChildren();
        continue;
      }
      json.nextToken();
      StoredType type = StoredType.ofTag(json.getText());
      json.nextToken();
      type.checkStored(json, name);
      String wire = null;
      int sliceOffset = 0;
      int sliceLength = 0;
      if (type == StoredType.STRING
          && json.getTextCharacters() == chars
          && plainText.test(chars, json.getTextOffset(), json.getTextLength())) {
        sliceOffset = json.getTextOffset();
        sliceLength = json.getTextLength();
      } else {
        wire = wire(type, json);
      }
      int position =
          json.nextToken() == JsonToken.VALUE_NUMBER_INT ? json.getIntValue() : found.count;
      while (json.currentToken() != JsonToken.END_ARRAY) {
        json.nextToken();
      }
      found.add(position, name, type, wire, sliceOffset, sliceLength);
    }
  }

  /** The value under the parser as the response shows it, from its stored form. */
  private String wire(StoredType type, JsonParser json) throws IOException {
    return switch (type) {
      case STRING -> decodeText.apply(json.getText());
      case INT32, INT64, DOUBLE, BOOLEAN, GUID -> json.getText();
      case DATE_TIME -> EdmDateTime.format(Ticks.toInstant(json.getLongValue()));
      case BINARY -> EdmBinary.format(HEX.parseHex(json.getText()));
    };
  }

  /**
   * The properties of one document in stored order, and their positions: each a wire text, or (a
   * plain string) a slice of the document.
   */
  static final class Found {
    private final char[] document;
    private final byte[] utf8;
    // UTF-8 wire texts made for a document read as bytes (a Binary's base64); null until one is
    private byte[][] owned;
    private int count;
    // room for the properties of most entities, without growing on the way
    private long[] positions = new long[16];
    private String[] names = new String[16];
    private StoredType[] types = new StoredType[16];
    private String[] wires = new String[16];
    private int[] slices = new int[32];
    private boolean inOrder = true;

    Found(char[] document) {
      this.document = document;
      this.utf8 = null;
    }

    Found(byte[] utf8) {
      this.document = null;
      this.utf8 = utf8;
    }

    int count() {
      return count;
    }

    /** Forgets what a scan that gave up had found. */
    void clear() {
      count = 0;
      inOrder = true;
    }

    void add(
        int position, String name, StoredType type, String wire, int sliceOffset, int sliceLength) {
      if (count == names.length) {
        positions = Arrays.copyOf(positions, count * 2);
        names = Arrays.copyOf(names, count * 2);
        types = Arrays.copyOf(types, count * 2);
        wires = Arrays.copyOf(wires, count * 2);
        slices = Arrays.copyOf(slices, count * 4);
        if (owned != null) {
          owned = Arrays.copyOf(owned, count * 2);
        }
      }
      // position in the high half, the stored index in the low: sorting orders by position and
      // keeps equal positions in stored order, as a stable sort would
      positions[count] = ((long) position << 32) | count;
      inOrder &= count == 0 || positions[count] > positions[count - 1];
      names[count] = name;
      types[count] = type;
      wires[count] = wire;
      slices[2 * count] = sliceOffset;
      slices[2 * count + 1] = sliceLength;
      count++;
    }

    /** A property whose wire text is these UTF-8 bytes, made for it. */
    void addOwned(int position, String name, StoredType type, byte[] wire) {
      add(position, name, type, null, 0, wire.length);
      if (owned == null) {
        owned = new byte[names.length][];
      }
      owned[count - 1] = wire;
    }

    void emit(PropertySink sink) throws IOException {
      if (!inOrder) {
        Arrays.sort(positions, 0, count);
      }
      for (int i = 0; i < count; i++) {
        int at = (int) positions[i];
        byte[] own = owned == null ? null : owned[at];
        if (own != null) {
          sink.utf8(names[at], types[at].edmType, own, 0, own.length);
        } else if (wires[at] == null && utf8 != null) {
          sink.utf8(names[at], types[at].edmType, utf8, slices[2 * at], slices[2 * at + 1]);
        } else if (wires[at] == null) {
          sink.text(names[at], types[at].edmType, document, slices[2 * at], slices[2 * at + 1]);
        } else {
          sink.property(names[at], types[at].edmType, wires[at]);
        }
      }
    }
  }
}
