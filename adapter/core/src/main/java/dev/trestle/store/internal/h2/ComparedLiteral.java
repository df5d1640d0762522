package dev.trestle.store.internal.h2;

import dev.trestle.store.internal.codec.StoredType;

/**
 * A filter's literal, parsed once per statement, compared with a stored value given as a slice of
 * the text it is in (the document, or the value's own text), with the results of {@link
 * H2Functions#compare} on the slice's text but without copying it where the type allows.
 */
final class ComparedLiteral {
  private final StoredType type;
  private final String text;
  private final long number;
  private final double real;
  private final boolean truth;

  private ComparedLiteral(StoredType type, String text) {
    this.type = type;
    this.text = text;
    this.number =
        switch (type) {
          case INT32, INT64, DATE_TIME -> Long.parseLong(text);
          default -> 0;
        };
    this.real = type == StoredType.DOUBLE ? Double.parseDouble(text) : 0;
    this.truth = type == StoredType.BOOLEAN && Boolean.parseBoolean(text);
  }

  /** The literal of a type and its canonical text ({@link StoredType#text}). */
  static ComparedLiteral of(StoredType type, String text) {
    return new ComparedLiteral(type, text);
  }

  /**
   * The sign of the stored value (the text of {@code in} from {@code start} to {@code end})
   * compared with this literal, or null when they are unordered (a NaN is involved).
   */
  Integer compareStored(String in, int start, int end) {
    return switch (type) {
      case STRING, GUID, BINARY -> compareText(in, start, end);
      case INT32, INT64, DATE_TIME -> Long.compare(parseLong(in, start, end), number);
      case BOOLEAN -> Boolean.compare(isTrue(in, start, end), truth);
      case DOUBLE -> {
        double stored = Double.parseDouble(in.substring(start, end));
        yield Double.isNaN(stored) || Double.isNaN(real)
            ? null
            : (stored < real ? -1 : stored > real ? 1 : 0);
      }
    };
  }

  /** As {@link String#compareTo}: by UTF-16 code unit, then by length. */
  private int compareText(String in, int start, int end) {
    int length = end - start;
    int common = Math.min(length, text.length());
    for (int i = 0; i < common; i++) {
      char a = in.charAt(start + i);
      char b = text.charAt(i);
      if (a != b) {
        return a - b;
      }
    }
    return length - text.length();
  }

  /** As {@link Long#parseLong}, without a copy for plain decimals of up to 18 digits. */
  private static long parseLong(String in, int start, int end) {
    int i = start;
    boolean negative = i < end && in.charAt(i) == '-';
    if (negative) {
      i++;
    }
    if (i == end || end - i > 18) {
      return Long.parseLong(in.substring(start, end));
    }
    long value = 0;
    for (; i < end; i++) {
      int digit = in.charAt(i) - '0';
      if (digit < 0 || digit > 9) {
        return Long.parseLong(in.substring(start, end));
      }
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  /** As {@link Boolean#parseBoolean}. */
  private static boolean isTrue(String in, int start, int end) {
    return end - start == 4 && in.regionMatches(true, start, "true", 0, 4);
  }
}
