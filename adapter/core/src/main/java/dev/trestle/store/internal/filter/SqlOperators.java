package dev.trestle.store.internal.filter;

import dev.trestle.filter.FilterExpression.ComparisonOperator;

/** SQL spellings of the filter's comparison operators, for templates (never user text). */
public final class SqlOperators {
  private SqlOperators() {}

  public static String of(ComparisonOperator operator) {
    return switch (operator) {
      case EQ -> "=";
      case NE -> "<>";
      case GT -> ">";
      case GE -> ">=";
      case LT -> "<";
      case LE -> "<=";
    };
  }
}
