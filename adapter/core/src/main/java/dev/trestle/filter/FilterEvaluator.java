package dev.trestle.filter;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.filter.internal.TextTests;
import dev.trestle.filter.internal.ValueComparison;

/**
 * The reference semantics of a filter, evaluated in memory on one entity (used to check the SQL
 * translation). Logic is two-valued, as the service exposes it:
 *
 * <ul>
 *   <li>A comparison on a property the entity does not have, or whose stored type does not compare
 *       with the literal's, is false for every operator, {@code ne} included. Types compare when
 *       they are the same, and an Int32 literal also compares numerically with Int64 and Double
 *       properties (as in Azure); an Int64 or Double literal matches its own type only.
 *   <li>{@code not} is plain negation of its operand's true/false result, so {@code not (X eq 1)}
 *       is true for an entity without {@code X}.
 *   <li>Strings compare by UTF-16 code unit; DateTime at 100 ns; Guid by canonical string form;
 *       Binary by unsigned bytes; false before true; Double by IEEE 754 (NaN equals nothing, so
 *       only {@code ne} is true for it; -0.0 equals 0.0).
 *   <li>{@code PartitionKey} and {@code RowKey} are strings and {@code Timestamp} a DateTime, all
 *       taken from the entity itself (an entity not yet stored has no Timestamp). Any other name,
 *       including {@code TableName}, is looked up among the user properties.
 * </ul>
 */
public final class FilterEvaluator {
  private FilterEvaluator() {}

  /**
   * True when the entity matches; PartitionKey, RowKey and Timestamp come from the entity itself.
   */
  public static boolean matches(FilterExpression filter, TableEntity entity) {
    return switch (filter) {
      case FilterExpression.And and -> matches(and.left(), entity) && matches(and.right(), entity);
      case FilterExpression.Or or -> matches(or.left(), entity) || matches(or.right(), entity);
      case FilterExpression.Not not -> !matches(not.operand(), entity);
      case FilterExpression.Constant constant -> constant.value();
      case FilterExpression.Comparison c ->
          ValueComparison.test(valueOf(c.property(), entity), c.operator(), c.literal());
      case FilterExpression.TextComparison t ->
          valueOf(t.property(), entity) instanceof PropertyValue.StringValue s
              && TextTests.test(t.textCase().apply(s.value()), t.operator(), t.text());
    };
  }

  private static PropertyValue valueOf(String property, TableEntity entity) {
    return switch (property) {
      case "PartitionKey" -> PropertyValue.of(entity.partitionKey());
      case "RowKey" -> PropertyValue.of(entity.rowKey());
      case "Timestamp" -> entity.timestamp() == null ? null : PropertyValue.of(entity.timestamp());
      default -> entity.properties().get(property);
    };
  }
}
