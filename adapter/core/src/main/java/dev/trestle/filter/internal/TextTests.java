package dev.trestle.filter.internal;

import dev.trestle.filter.FilterExpression.TextOperator;

/** The reference semantics of a text test: ordinal, by UTF-16 code unit, as Java compares. */
public final class TextTests {
  private TextTests() {}

  /** Whether {@code value} (already case-mapped) passes the test against {@code text}. */
  public static boolean test(String value, TextOperator operator, String text) {
    return switch (operator) {
      case EQ -> value.equals(text);
      case NE -> !value.equals(text);
      case GT -> value.compareTo(text) > 0;
      case GE -> value.compareTo(text) >= 0;
      case LT -> value.compareTo(text) < 0;
      case LE -> value.compareTo(text) <= 0;
      case STARTS_WITH -> value.startsWith(text);
      case ENDS_WITH -> value.endsWith(text);
      case CONTAINS -> value.contains(text);
    };
  }
}
