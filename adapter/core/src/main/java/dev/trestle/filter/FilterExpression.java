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

  enum ComparisonOperator {
    EQ,
    NE,
    GT,
    GE,
    LT,
    LE
  }
}
