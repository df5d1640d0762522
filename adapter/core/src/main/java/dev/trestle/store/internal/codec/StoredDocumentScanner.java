package dev.trestle.store.internal.codec;

import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmDateTime;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Hands a response the properties of a stored document as wire text ({@link StoredDocumentCursor}),
 * without a value object per property: a query page runs this for every row, where a Jackson parser
 * per row (its buffers from a shared pool, a String per token, each value parsed to be checked) was
 * most of the server's CPU. A document the cursor leaves goes to the Jackson path ({@link
 * StoredProperties}), which decides.
 */
final class StoredDocumentScanner {
  private static final String TRUE = "true";
  private static final String FALSE = "false";

  private final UnaryOperator<String> decodeText;
  private final PropertyCodec.PlainText plainText;
  private final PropertyNames names = new PropertyNames();

  StoredDocumentScanner(UnaryOperator<String> decodeText, PropertyCodec.PlainText plainText) {
    this.decodeText = decodeText;
    this.plainText = plainText;
  }

  /** Adds the selected properties to {@code found}; false when the Jackson path must decide. */
  boolean scan(char[] c, Set<String> select, StoredProperties.Found found) {
    StoredDocumentCursor cursor = new StoredDocumentCursor(c, names);
    while (cursor.next()) {
      String name = cursor.name();
      if (select != null && !select.contains(name)) {
        continue;
      }
      StoredType type = cursor.type();
      int start = cursor.start();
      int length = cursor.end() - start;
      // the wire text as a String, or null for the slice of the document
      String wire =
          switch (type) {
            case STRING ->
                plainText.test(c, start, length)
                    ? null
                    : decodeText.apply(new String(c, start, length));
            case BOOLEAN -> cursor.number() != 0 ? TRUE : FALSE;
            case DATE_TIME -> EdmDateTime.format(Ticks.toInstant(cursor.number()));
            case BINARY -> EdmBinary.format(cursor.bytes());
            case INT32, INT64, DOUBLE, GUID -> null;
          };
      found.add(cursor.position(found.count()), name, type, wire, start, length);
    }
    return cursor.complete();
  }
}
