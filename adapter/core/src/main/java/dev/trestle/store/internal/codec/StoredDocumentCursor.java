package dev.trestle.store.internal.codec;

/**
 * Walks a stored document ({@link PropertyCodec}) in the shape Trestle writes it and PostgreSQL's
 * jsonb or H2 give it back, one property at a time, by hand: each value is checked as the Jackson
 * path checks it and left where it is, a slice of the document's characters (with its number or
 * bytes where the check made them). It accepts only what the Jackson path reads to the same result;
 * at anything else (a malformed row, an unusual but valid form) it stops and {@link #complete} is
 * false, and the Jackson path reads the document again and decides, with its exact errors. Both
 * readers of stored documents run on it: the response's ({@link StoredDocumentScanner}) and the
 * library's ({@link StoredDocumentDecoder}).
 */
final class StoredDocumentCursor {
  private static final int BEFORE = 0;
  private static final int NEXT = 1;
  private static final int COMPLETE = 2;
  private static final int REFUSED = 3;

  private final char[] c;
  private final PropertyNames names;
  private int i;
  private int state = BEFORE;

  // the property under the cursor
  private String name;
  private StoredType type;
  private int start;
  private int end;
  private long number;
  private byte[] bytes;
  private int position;

  StoredDocumentCursor(char[] document, PropertyNames names) {
    this.c = document;
    this.names = names;
  }

  /**
   * Moves to the next property, checked; false at the end of the document, or where the Jackson
   * path must decide.
   */
  boolean next() {
    int n = c.length;
    if (state == BEFORE) {
      i = skipSpace(c, 0);
      if (i >= n || c[i] != '{') {
        return refuse();
      }
      i = skipSpace(c, i + 1);
      if (i < n && c[i] == '}') {
        return finish(i);
      }
    } else if (state == NEXT) {
      i = skipSpace(c, i);
      if (i < n && c[i] == '}') {
        return finish(i);
      }
      if (i >= n || c[i] != ',') {
        return refuse();
      }
      i = skipSpace(c, i + 1);
    } else {
      return false;
    }
    state = NEXT;
    return property(n) || refuse();
  }

  /** Whether the whole document was read: every property in it was handed out. */
  boolean complete() {
    return state == COMPLETE;
  }

  String name() {
    return name;
  }

  StoredType type() {
    return type;
  }

  /**
   * Where the value's text starts: inside the quotes of a string, double, GUID or binary value; at
   * the literal of a number or boolean.
   */
  int start() {
    return start;
  }

  /** Where the value's text ends (exclusive). */
  int end() {
    return end;
  }

  /** An integer's or DateTime's value (in range: checked), 1 or 0 for a boolean. */
  long number() {
    return number;
  }

  /** A binary value's bytes, made for this property. */
  byte[] bytes() {
    return bytes;
  }

  /** The stored position, or {@code missing} when the property has none. */
  int position(int missing) {
    return position < 0 ? missing : position;
  }

  private boolean finish(int closing) {
    state = skipSpace(c, closing + 1) == c.length ? COMPLETE : REFUSED;
    return false;
  }

  private boolean refuse() {
    state = REFUSED;
    return false;
  }

  /** Reads {@code "Name": ["t", value, position]} from {@link #i}; false where it cannot. */
  private boolean property(int n) {
    if (i >= n || c[i] != '"') {
      return false;
    }
    int nameStart = i + 1;
    int nameEnd = plainStringEnd(c, nameStart);
    if (nameEnd < 0) {
      return false;
    }
    name = names.of(c, nameStart, nameEnd - nameStart);
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
    type = StoredType.ofTag(c[i + 1]);
    if (type == null) {
      return false;
    }
    i = skipSpace(c, i + 3);
    if (i >= n || c[i] != ',') {
      return false;
    }
    if (!value(skipSpace(c, i + 1))) {
      return false;
    }
    // , position]  (the position may be missing)
    i = skipSpace(c, type.isJsonScalar() ? end : end + 1);
    position = -1;
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
    i++;
    return true;
  }

  /** Checks the value of {@link #type} that starts at {@code at}, and sets its slice. */
  private boolean value(int at) {
    int n = c.length;
    bytes = null;
    switch (type) {
      case STRING, DOUBLE, GUID, BINARY -> {
        if (at >= n || c[at] != '"') {
          return false;
        }
        start = at + 1;
        end = plainStringEnd(c, start);
        if (end < 0) {
          // a string with escapes: rare enough for the Jackson path
          return false;
        }
        int length = end - start;
        return switch (type) {
          case DOUBLE -> isCanonicalDouble(c, start, end);
          case GUID -> isGuid(c, start, length);
          case BINARY -> (bytes = hexBytes(c, start, length)) != null;
          default -> true;
        };
      }
      case BOOLEAN -> {
        start = at;
        if (matches(c, at, "true")) {
          number = 1;
          end = at + 4;
        } else if (matches(c, at, "false")) {
          number = 0;
          end = at + 5;
        } else {
          return false;
        }
        return true;
      }
      default -> {
        // INT32, INT64, DATE_TIME: a JSON integer of the type's range
        start = at;
        end = integerEnd(c, at);
        if (end < 0) {
          return false;
        }
        if (end - at > 18) {
          // 19 digits and more: Jackson reads them exactly as long as they fit a long
          try {
            number = Long.parseLong(new String(c, at, end - at));
          } catch (NumberFormatException e) {
            return false;
          }
        } else {
          number = digits(c, at, end);
        }
        return type == StoredType.INT32
            ? number == (int) number
            : type != StoredType.DATE_TIME || Ticks.inRange(number);
      }
    }
  }

  private static int skipSpace(char[] c, int i) {
    while (i < c.length && (c[i] == ' ' || c[i] == '\n' || c[i] == '\r' || c[i] == '\t')) {
      i++;
    }
    return i;
  }

  /**
   * The index of the quote that closes a string starting at {@code i} (after its opening quote); -1
   * for a string with an escape or a control character, or none.
   */
  private static int plainStringEnd(char[] c, int i) {
    for (; i < c.length; i++) {
      char ch = c[i];
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
   * The end of a JSON integer starting at {@code i}, as Jackson reads one: an optional minus, then
   * 0 or digits without a leading zero, not followed by a fraction or an exponent; -1 otherwise
   * (and for "-0", whose text Jackson keeps).
   */
  private static int integerEnd(char[] c, int i) {
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
  private static long digits(char[] c, int start, int end) {
    boolean negative = c[start] == '-';
    long value = 0;
    for (int i = negative ? start + 1 : start; i < end; i++) {
      value = value * 10 + (c[i] - '0');
    }
    return negative ? -value : value;
  }

  private static boolean matches(char[] c, int i, String word) {
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
  private static boolean isCanonicalDouble(char[] c, int start, int end) {
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
  private static boolean isGuid(char[] c, int start, int length) {
    if (length != 36) {
      return false;
    }
    for (int k = 0; k < 36; k++) {
      char ch = c[start + k];
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
  private static byte[] hexBytes(char[] c, int start, int length) {
    if (length % 2 != 0) {
      return null;
    }
    byte[] bytes = new byte[length / 2];
    for (int k = 0; k < bytes.length; k++) {
      int high = hexValue(c[start + 2 * k]);
      int low = hexValue(c[start + 2 * k + 1]);
      if (high < 0 || low < 0) {
        return null;
      }
      bytes[k] = (byte) (high << 4 | low);
    }
    return bytes;
  }

  /** An ASCII hex digit's value, -1 for any other character. */
  static int hexValue(char ch) {
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
