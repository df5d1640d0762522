package dev.trestle.store.internal.database;

import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.Int32Value;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.store.internal.codec.StoredType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A comparison of a user property with a literal, as a dialect evaluates it: the stored types it
 * accepts and the literal in the form compared with them. A comparison of the filter is one or more
 * of these, or'ed: the one home of the rule that an Int32 literal also compares with Int64 values
 * (as integers) and Double values (as a double), and any other literal with its own type only.
 */
public record TypedComparison(
    String property,
    Set<StoredType> acceptedTypes,
    ComparisonOperator operator,
    PropertyValue literal) {

  /** The typed comparisons whose disjunction is the comparison of a user property. */
  public static List<TypedComparison> of(Comparison comparison) {
    String property = comparison.property();
    ComparisonOperator operator = comparison.operator();
    PropertyValue literal = comparison.literal();
    if (literal instanceof Int32Value number) {
      return List.of(
          new TypedComparison(
              property, EnumSet.of(StoredType.INT32, StoredType.INT64), operator, literal),
          new TypedComparison(
              property,
              EnumSet.of(StoredType.DOUBLE),
              operator,
              PropertyValue.of((double) number.value())));
    }
    return List.of(
        new TypedComparison(
            property, EnumSet.of(StoredType.of(literal.type())), operator, literal));
  }
}
