package dev.trestle.store.internal.codec;

import dev.trestle.edm.EdmDateTime;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@link StoredDocumentScanner} over the document's UTF-8 bytes as the database sent them: a page
 * read from PostgreSQL hands the driver's buffer of each row over as it is, so that neither a
 * String nor a char array is made of the document, and a plain string value goes to the response as
 * a slice of those bytes. It accepts exactly what {@link StoredDocumentScanner} accepts, and
 * answers false where it would; its caller then decodes the document and takes the character path.
 */
final class StoredUtf8Scanner {
  private static final String TRUE = "true";
  private static final String FALSE = "false";
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  private final UnaryOperator<String> decodeText;
  private final PropertyCodec.PlainUtf8 plainText;
  private final PropertyNames names = new PropertyNames();

  /**
   * Whether the dialect stores text of printable ASCII (U+0020 to U+007F) as it is, asked once of
   * all those characters together: a plain string's end and whether it is ASCII are then found in
   * one pass, without a second pass of {@code plainText} over each value. (Stored text decodes
   * character by character, so what holds of them all holds of any string of them.)
   */
  private final boolean asciiAsIs;

  StoredUtf8Scanner(UnaryOperator<String> decodeText, PropertyCodec.PlainUtf8 plainText) {
    this.decodeText = decodeText;
    this.plainText = plainText;
    byte[] ascii = new byte[0x80 - 0x20];
    for (int i = 0; i < ascii.length; i++) {
      ascii[i] = (byte) (0x20 + i);
    }
    this.asciiAsIs = plainText.test(ascii, 0, ascii.length);
  }

  /** Adds the selected properties to {@code found}; false when the Jackson path must decide. */
  boolean scan(byte[] c, Set<String> select, StoredProperties.Found found) {
    int n = c.length;
    int i = skipSpace(c, 0);
    if (i >= n || c[i] != '{') {
      return false;
    }
    i = skipSpace(c, i + 1);
    if (i < n && c[i] == '}') {
      return skipSpace(c, i + 1) == n;
    }
    while (true) {
      // "Name"
      if (i >= n || c[i] != '"') {
        return false;
      }
      int nameStart = i + 1;
      int nameEnd = plainStringEnd(c, nameStart);
      if (nameEnd < 0) {
        return false;
      }
      String name = names.of(c, nameStart, nameEnd - nameStart);
      // : ["t",
      i = skipSpace(c, nameEnd + 1);
      if (i >= n || c[i] != ':') {
        return false;
      }
      i = skipSpace(c, i + 1);
      if (i >= n || c[i] != '[') {
        return false;
      }
      i = skipSpace(c, i + 1);
      if (i + 2 >= n || c[i] != '"' || c[i + 2] != '"') {
        return false;
      }
      StoredType type = StoredType.ofTag((char) c[i + 1]);
      if (type == null) {
        return false;
      }
      i = skipSpace(c, i + 3);
      if (i >= n || c[i] != ',') {
        return false;
      }
      int start = skipSpace(c, i + 1);
      // the value: its end, and its wire text as a String or a slice [start, end) of the document
      int end;
      String wire = null;
      byte[] own = null;
      int sliceStart = start;
      int sliceEnd;
      switch (type) {
        case STRING, DOUBLE, GUID, BINARY -> {
          if (start >= n || c[start] != '"') {
            return false;
          }
          sliceStart = start + 1;
          int scanned = plainStringEndAscii(c, sliceStart);
          if (scanned == -1) {
            // a string with escapes: rare enough for the Jackson path
            return false;
          }
          boolean ascii = scanned >= 0;
          sliceEnd = ascii ? scanned : -2 - scanned;
          end = sliceEnd + 1;
          int length = sliceEnd - sliceStart;
          switch (type) {
            case STRING -> {
              if (!(ascii && asciiAsIs) && !plainText.test(c, sliceStart, length)) {
                wire = decodeText.apply(new String(c, sliceStart, length, StandardCharsets.UTF_8));
              }
            }
            case DOUBLE -> {
              if (!isCanonicalDouble(c, sliceStart, sliceEnd)) {
                return false;
              }
            }
            case GUID -> {
              if (!isGuid(c, sliceStart, length)) {
                return false;
              }
            }
            default -> {
              byte[] bytes = hexBytes(c, sliceStart, length);
              if (bytes == null) {
                return false;
              }
              // base64 as bytes, which the response copies as they are
              own = Base64.getEncoder().encode(bytes);
            }
          }
        }
        case BOOLEAN -> {
          if (matches(c, start, TRUE)) {
            wire = TRUE;
            end = start + 4;
          } else if (matches(c, start, FALSE)) {
            wire = FALSE;
            end = start + 5;
          } else {
            return false;
          }
          sliceEnd = end;
        }
        default -> {
          // INT32, INT64, DATE_TIME: a JSON integer of the type's range
          end = integerEnd(c, start);
          if (end < 0) {
            return false;
          }
          sliceEnd = end;
          long value;
          if (end - start > 18) {
            // 19 digits and more: Jackson reads them exactly as long as they fit a long
            try {
              value =
                  Long.parseLong(new String(c, start, end - start, StandardCharsets.ISO_8859_1));
            } catch (NumberFormatException e) {
              return false;
            }
          } else {
            value = digits(c, start, end);
          }
          if (type == StoredType.INT32) {
            if (value != (int) value) {
              return false;
            }
          } else if (type == StoredType.DATE_TIME) {
            if (!Ticks.inRange(value)) {
              return false;
            }
            wire = EdmDateTime.format(Ticks.toInstant(value));
          }
        }
      }
      // , position]  (the position may be missing)
      i = skipSpace(c, end);
      int position = found.count();
      if (i < n && c[i] == ',') {
        int positionStart = skipSpace(c, i + 1);
        int positionEnd = integerEnd(c, positionStart);
        if (positionEnd < 0 || positionEnd - positionStart > 9 || c[positionStart] == '-') {
          return false;
        }
        position = (int) digits(c, positionStart, positionEnd);
        i = skipSpace(c, positionEnd);
      }
      if (i >= n || c[i] != ']') {
        return false;
      }
      if (select == null || select.contains(name)) {
        if (own != null) {
          found.addOwned(position, name, type, own);
        } else {
          found.add(position, name, type, wire, sliceStart, sliceEnd - sliceStart);
        }
      }
      i = skipSpace(c, i + 1);
      if (i >= n) {
        return false;
      }
      if (c[i] == '}') {
        return skipSpace(c, i + 1) == n;
      }
      if (c[i] != ',') {
        return false;
      }
      i = skipSpace(c, i + 1);
    }
  }

  private static int skipSpace(byte[] c, int i) {
    while (i < c.length && (c[i] == ' ' || c[i] == '\n' || c[i] == '\r' || c[i] == '\t')) {
      i++;
    }
    return i;
  }

  /**
   * The index of the quote that closes a string starting at {@code i} (after its opening quote); -1
   * for a string with an escape or a control character, or none.
   */
  private static int plainStringEnd(byte[] c, int i) {
    for (; i < c.length; i++) {
      int ch = c[i] & 0xFF;
      if (ch == '"') {
        return i;
      }
      if (ch == '\\' || ch < 0x20) {
        return -1;
      }
    }
    return -1;
  }

  /**
   * {@link #plainStringEnd} that also tells, in the same pass, whether the string is ASCII: the
   * closing quote's index for an ASCII string, {@code -2 - index} for one with bytes from 0x80 up,
   * -1 as there.
   */
  private static int plainStringEndAscii(byte[] c, int i) {
    // Eight bytes at a time while none of them can end the string, then byte by byte from the word
    // that may: long strings are most of a typical document (measured on the benchmark's 1 KB
    // documents, their transcode 10 to 15% faster than byte by byte).
    long high = 0;
    for (; i <= c.length - Long.BYTES; i += Long.BYTES) {
      long word = (long) LONGS.get(c, i);
      if (mayEndString(word)) {
        break;
      }
      high |= word;
    }
    int seen = (high & HIGH_BITS) == 0 ? 0 : 0x80;
    for (; i < c.length; i++) {
      int ch = c[i] & 0xFF;
      if (ch == '"') {
        return seen < 0x80 ? i : -2 - i;
      }
      if (ch == '\\' || ch < 0x20) {
        return -1;
      }
      seen |= ch;
    }
    return -1;
  }

  /**
   * Whether one of the word's bytes is a quote, a backslash or a control character (below 0x20):
   * the classic test for a zero byte, {@code (x - 0x01..) & ~x & 0x80..}, exact as a whole (not per
   * byte), applied to the word xor each byte sought, and its form for bytes below 0x20.
   */
  private static boolean mayEndString(long word) {
    long quote = word ^ (ONES * '"');
    long backslash = word ^ (ONES * '\\');
    long flags =
        ((quote - ONES) & ~quote)
            | ((backslash - ONES) & ~backslash)
            | ((word - ONES * 0x20) & ~word);
    return (flags & HIGH_BITS) != 0;
  }

  /**
   * The end of a JSON integer starting at {@code i}, as Jackson reads one: an optional minus, then
   * 0 or digits without a leading zero, not followed by a fraction or an exponent; -1 otherwise
   * (and for "-0", whose text Jackson keeps).
   */
  private static int integerEnd(byte[] c, int i) {
    int start = i;
    if (i < c.length && c[i] == '-') {
      i++;
    }
    int digitsStart = i;
    while (i < c.length && c[i] >= '0' && c[i] <= '9') {
      i++;
    }
    if (i == digitsStart
        || (c[digitsStart] == '0' && (i - digitsStart > 1 || digitsStart > start))
        || i - digitsStart > 19) {
      return -1;
    }
    if (i < c.length && (c[i] == '.' || c[i] == 'e' || c[i] == 'E')) {
      return -1;
    }
    return i;
  }

  /** The value of at most 18 digits, with an optional minus. */
  private static long digits(byte[] c, int start, int end) {
    boolean negative = c[start] == '-';
    long value = 0;
    for (int i = negative ? start + 1 : start; i < end; i++) {
      value = value * 10 + (c[i] - '0');
    }
    return negative ? -value : value;
  }

  private static boolean matches(byte[] c, int i, String word) {
    if (i + word.length() > c.length) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (c[i + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A double as {@link Double#toString} writes it ({@code -1.25}, {@code 1.0E-5}), or NaN or an
   * infinity: every such text parses, and goes to the response as it is. Anything else that parses
   * too is left to the Jackson path.
   */
  private static boolean isCanonicalDouble(byte[] c, int start, int end) {
    int length = end - start;
    if (length == 3 && c[start] == 'N' && c[start + 1] == 'a' && c[start + 2] == 'N') {
      return true;
    }
    int i = start < end && c[start] == '-' ? start + 1 : start;
    if (end - i == 8 && matches(c, i, "Infinity")) {
      return true;
    }
    int integer = i;
    while (i < end && c[i] >= '0' && c[i] <= '9') {
      i++;
    }
    if (i == integer || i >= end || c[i] != '.') {
      return false;
    }
    int fraction = ++i;
    while (i < end && c[i] >= '0' && c[i] <= '9') {
      i++;
    }
    if (i == fraction) {
      return false;
    }
    if (i == end) {
      return true;
    }
    if (c[i] != 'E') {
      return false;
    }
    i++;
    if (i < end && c[i] == '-') {
      i++;
    }
    int exponent = i;
    while (i < end && c[i] >= '0' && c[i] <= '9') {
      i++;
    }
    return i > exponent && i == end;
  }

  /** 8-4-4-4-12 hex digits, which {@link java.util.UUID#fromString} reads. */
  private static boolean isGuid(byte[] c, int start, int length) {
    if (length != 36) {
      return false;
    }
    for (int k = 0; k < 36; k++) {
      int ch = c[start + k] & 0xFF;
      if (k == 8 || k == 13 || k == 18 || k == 23) {
        if (ch != '-') {
          return false;
        }
      } else if (hexValue(ch) < 0) {
        return false;
      }
    }
    return true;
  }

  /** The bytes of whole hex pairs; null otherwise. */
  private static byte[] hexBytes(byte[] c, int start, int length) {
    if (length % 2 != 0) {
      return null;
    }
    byte[] bytes = new byte[length / 2];
    int invalid = 0;
    for (int k = 0; k < bytes.length; k++) {
      int high = HEX_VALUES[c[start + 2 * k] & 0xFF];
      int low = HEX_VALUES[c[start + 2 * k + 1] & 0xFF];
      invalid |= high | low;
      bytes[k] = (byte) (high << 4 | low);
    }
    return invalid < 0 ? null : bytes;
  }

  /** Each byte's hex digit value, -1 for a byte that is none. */
  private static final byte[] HEX_VALUES = new byte[256];

  static {
    for (int ch = 0; ch < 256; ch++) {
      HEX_VALUES[ch] = (byte) hexValue(ch);
    }
  }

  /** An ASCII hex digit's value, -1 for any other character. */
  private static int hexValue(int ch) {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return -1;
  }
}
