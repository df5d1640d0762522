package dev.trestle.filter;

import dev.trestle.filter.internal.ExpressionParser;

/** Parses the Table service's OData {@code $filter} language into a {@link FilterExpression}. */
public final class FilterParser {
  private FilterParser() {}

  /**
   * Parses a filter. Throws {@code TableException(INVALID_INPUT)} naming the (0-based) position of
   * a syntax error, and {@code INVALID_INPUT} as well when the filter has more than 15 comparisons.
   *
   * <p>Grammar: comparisons {@code eq ne gt ge lt le} between one property and one literal (either
   * side; a literal on the left is flipped so the property is always on the left), combined with
   * {@code not}, {@code and}, {@code or} (that precedence, tightest first) and parentheses. A bare
   * property name ({@code IsActive}) means {@code IsActive eq true}. Literals: {@code 'text'}
   * ({@code ''} is a quote), {@code 42} (Int32; out of range is an error, not an Int64), {@code
   * 42L} (Int64), {@code 1.5}, {@code 1e10}, {@code 2d}, {@code NaN}, {@code INF}, {@code -INF}
   * (Double), {@code true}/{@code false}, {@code datetime'2024-01-01T00:00:00.1234567Z'}, {@code
   * guid'…'}, {@code X'0aff'} or {@code binary'0aff'}.
   *
   * <p>An empty or blank filter is a syntax error here: callers treat a null or blank {@code
   * $filter} as "no filter" before they call this.
   */
  public static FilterExpression parse(String filter) {
    return ExpressionParser.parse(filter);
  }

  /**
   * Parses a filter in Trestle's extended syntax, which Trestle's extensions accept (never a
   * standard query): the standard language plus {@code startswith(Property, 'prefix')}, true when
   * the property is a string starting with the prefix, compared by UTF-16 code units (ordinal, case
   * sensitive, as every string comparison of the service). It reads as the range {@code Property ge
   * 'prefix' and Property lt 'prefiy'}, so a prefix of PartitionKey or RowKey walks the key index.
   * Also {@code endswith(P, 'x')}, {@code contains(P, 'x')}, {@code substringof('x', P)}, and
   * {@code tolower(P)}/{@code toupper(P)} as the first argument of these or compared ({@code eq ne
   * gt ge lt le}) with a string literal: each UTF-16 unit mapped by {@link
   * FilterExpression.TextCase}, the literal left as written. All are false for a property that is
   * missing or not a String, and match whole UTF-16 units (no pattern characters).
   */
  public static FilterExpression parseExtended(String filter) {
    return ExpressionParser.parse(filter, true);
  }
}
