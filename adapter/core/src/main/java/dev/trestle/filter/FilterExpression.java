package dev.trestle.filter;

import dev.trestle.PropertyValue;

/**
 * The syntax tree of an OData {@code $filter}. Comparisons always have the property on the left
 * (the parser flips {@code 5 lt Age} into {@code Age gt 5}).
 */
public sealed interface FilterExpression {

  record And(FilterExpression left, FilterExpression right) implements FilterExpression {}

  record Or(FilterExpression left, FilterExpression right) implements FilterExpression {}

  record Not(FilterExpression operand) implements FilterExpression {}

  /**
   * A bare {@code true} or {@code false}: the .NET SDK writes them when it turns a predicate built
   * up from {@code x => false} or {@code x => true} into a filter ({@code (false or PartitionKey eq
   * 'a')}).
   */
  record Constant(boolean value) implements FilterExpression {}

  /**
   * {@code property operator literal}. The property may be a user property or one of the system
   * properties {@code PartitionKey}, {@code RowKey}, {@code Timestamp} (or {@code TableName} in
   * Query Tables).
   */
  record Comparison(String property, ComparisonOperator operator, PropertyValue literal)
      implements FilterExpression {}

  /**
   * A string test of Trestle's extended syntax (never a standard {@code $filter}): {@code
   * contains}, {@code endswith}, a case-insensitive {@code startswith}, or a comparison of {@code
   * tolower(P)}/{@code toupper(P)} with a literal. False when the property is missing or not a
   * String, for every operator; ordinal (UTF-16 code units) after the optional case mapping.
   */
  record TextComparison(String property, TextCase textCase, TextOperator operator, String text)
      implements FilterExpression {}

  /** How a property's text is mapped before a {@link TextComparison}. */
  enum TextCase {
    /** As stored. */
    AS_IS,
    /**
     * {@code tolower}: each UTF-16 unit through {@link Character#toLowerCase(char)} (Unicode's
     * simple lowercase mapping of the BMP, independent of any locale or database collation);
     * surrogates, so supplementary characters, stay as they are.
     */
    LOWER,
    /** {@code toupper}: each UTF-16 unit through {@link Character#toUpperCase(char)}, likewise. */
    UPPER;

    /** The unit after the mapping. */
    public char map(char unit) {
      return switch (this) {
        case AS_IS -> unit;
        case LOWER -> Character.toLowerCase(unit);
        case UPPER -> Character.toUpperCase(unit);
      };
    }

    /** The text with each unit mapped: same length, same unit positions. */
    public String apply(String text) {
      if (this == AS_IS) {
        return text;
      }
      char[] units = text.toCharArray();
      for (int i = 0; i < units.length; i++) {
        units[i] = map(units[i]);
      }
      return new String(units);
    }
  }

  /** What a {@link TextComparison} tests. */
  enum TextOperator {
    EQ,
    NE,
    GT,
    GE,
    LT,
    LE,
    STARTS_WITH,
    ENDS_WITH,
    CONTAINS
  }

  enum ComparisonOperator {
    EQ,
    NE,
    GT,
    GE,
    LT,
    LE;

    /** Whether a three-way comparison's result (stored value against literal) satisfies this. */
    public boolean holds(int order) {
      return switch (this) {
        case EQ -> order == 0;
        case NE -> order != 0;
        case GT -> order > 0;
        case GE -> order >= 0;
        case LT -> order < 0;
        case LE -> order <= 0;
      };
    }
  }
}
