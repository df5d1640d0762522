package dev.trestle.store.internal.codec;

import com.fasterxml.jackson.core.io.NumberInput;
import dev.trestle.PropertyValue;
import java.util.Arrays;
import java.util.Collection;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * Decodes a stored document into values in one pass over its characters ({@link
 * StoredDocumentCursor}), each value made from its slice of the document: a library read ({@code
 * TableClient.get}, query pages) decodes every entity, and the Jackson parser (a String per token,
 * each value's text parsed again) was half of an H2 point read. A document the cursor leaves is
 * decoded by the Jackson path ({@link PropertyCodec}), which decides, with its exact errors.
 */
final class StoredDocumentDecoder {
  private final UnaryOperator<String> decodeText;
  private final PropertyNames names = new PropertyNames();

  StoredDocumentDecoder(UnaryOperator<String> decodeText) {
    this.decodeText = decodeText;
  }

  /**
   * Hands the properties named in {@code select} (all when null) to {@code put} in the order they
   * were written, once the whole document has been read; false (and nothing handed) when the
   * Jackson path must decide.
   */
  boolean decode(char[] c, Collection<String> select, BiConsumer<String, PropertyValue> put) {
    StoredDocumentCursor cursor = new StoredDocumentCursor(c, names);
    Decoded decoded = new Decoded();
    while (cursor.next()) {
      String name = cursor.name();
      if (select == null || select.contains(name)) {
        decoded.add(cursor.position(decoded.count), name, value(c, cursor));
      }
    }
    if (!cursor.complete()) {
      return false;
    }
    decoded.emit(put);
    return true;
  }

  /** The value under the cursor, as the Jackson path makes it from the same text. */
  private PropertyValue value(char[] c, StoredDocumentCursor cursor) {
    int start = cursor.start();
    int length = cursor.end() - start;
    return switch (cursor.type()) {
      case STRING -> PropertyValue.of(decodeText.apply(new String(c, start, length)));
      case INT32 -> PropertyValue.of((int) cursor.number());
      case INT64 -> PropertyValue.of(cursor.number());
      // Double.toString's form, or NaN or an infinity (checked): read as Double.parseDouble reads
      // it, to the same bits, in a tenth of its time
      case DOUBLE -> PropertyValue.of(NumberInput.parseDouble(c, start, length, true));
      case BOOLEAN -> PropertyValue.of(cursor.number() != 0);
      case DATE_TIME -> PropertyValue.of(Ticks.toInstant(cursor.number()));
      case GUID -> PropertyValue.of(guid(c, start));
      case BINARY -> PropertyValue.of(cursor.bytes());
    };
  }

  /** The GUID of 8-4-4-4-12 hex digits (checked), as {@link UUID#fromString} reads it. */
  private static UUID guid(char[] c, int start) {
    long high = hex(c, start, 8) << 32 | hex(c, start + 9, 4) << 16 | hex(c, start + 14, 4);
    long low = hex(c, start + 19, 4) << 48 | hex(c, start + 24, 12);
    return new UUID(high, low);
  }

  private static long hex(char[] c, int start, int digits) {
    long value = 0;
    for (int k = start; k < start + digits; k++) {
      value = value << 4 | StoredDocumentCursor.hexValue(c[k]);
    }
    return value;
  }

  /** The decoded properties of one document, in stored order, and their positions. */
  private static final class Decoded {
    private int count;
    // room for the properties of most entities, without growing on the way
    private long[] positions = new long[16];
    private String[] names = new String[16];
    private PropertyValue[] values = new PropertyValue[16];
    private boolean inOrder = true;

    void add(int position, String name, PropertyValue value) {
      if (count == names.length) {
        positions = Arrays.copyOf(positions, count * 2);
        names = Arrays.copyOf(names, count * 2);
        values = Arrays.copyOf(values, count * 2);
      }
      // position in the high half, the stored index in the low: sorting orders by position and
      // keeps equal positions in stored order, as the Jackson path's stable sort does
      positions[count] = ((long) position << 32) | count;
      inOrder &= count == 0 || positions[count] > positions[count - 1];
      names[count] = name;
      values[count] = value;
      count++;
    }

    void emit(BiConsumer<String, PropertyValue> put) {
      if (!inOrder) {
        Arrays.sort(positions, 0, count);
      }
      for (int i = 0; i < count; i++) {
        int at = (int) positions[i];
        put.accept(names[at], values[at]);
      }
    }
  }
}
