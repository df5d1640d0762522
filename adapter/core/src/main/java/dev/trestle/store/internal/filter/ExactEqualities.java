package dev.trestle.store.internal.filter;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values a filter's top-level conjuncts require user properties to equal, where the literal has
 * exactly one stored form: String, Guid, Binary, Boolean, Int64 and DateTime. Every entity the
 * filter matches holds each of these values as stored. Int32 literals are left out because they
 * also match Int64 and Double values, and Double ones because equal doubles have several stored
 * texts ({@code 0.0} and {@code -0.0}).
 */
public final class ExactEqualities {
  private static final Set<String> SYSTEM_PROPERTIES =
      Set.of("PartitionKey", "RowKey", "Timestamp");

  private ExactEqualities() {}

  /** The required values by property name, in filter order; empty when there are none. */
  public static Map<String, List<PropertyValue>> of(FilterExpression filter) {
    Map<String, List<PropertyValue>> values = new LinkedHashMap<>();
    collect(filter, values);
    return values;
  }

  private static void collect(FilterExpression filter, Map<String, List<PropertyValue>> values) {
    switch (filter) {
      case And and -> {
        collect(and.left(), values);
        collect(and.right(), values);
      }
      case Comparison c
          when c.operator() == ComparisonOperator.EQ
              && hasOneStoredForm(c.literal())
              && !SYSTEM_PROPERTIES.contains(c.property()) ->
          values.computeIfAbsent(c.property(), name -> new ArrayList<>()).add(c.literal());
      default -> {} // or, not, constants and other comparisons require no single stored value
    }
  }

  private static boolean hasOneStoredForm(PropertyValue literal) {
    return switch (literal) {
      case PropertyValue.StringValue v -> true;
      case PropertyValue.GuidValue v -> true;
      case PropertyValue.BinaryValue v -> true;
      case PropertyValue.BooleanValue v -> true;
      case PropertyValue.Int64Value v -> true;
      case PropertyValue.DateTimeValue v -> true;
      case PropertyValue.Int32Value v -> false;
      case PropertyValue.DoubleValue v -> false;
    };
  }
}
