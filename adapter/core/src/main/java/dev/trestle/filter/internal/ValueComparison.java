package dev.trestle.filter.internal;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import java.util.Arrays;
import java.util.UUID;

/**
 * One comparison of a stored value with a literal, as the service evaluates it: false when the
 * value is missing or its type does not compare with the literal's, otherwise the operator applied
 * to the two values.
 */
public final class ValueComparison {
  private ValueComparison() {}

  /**
   * Typing as the service does it: identical EDM types compare, and an Int32 literal (a number
   * without a suffix) also compares numerically with Int64 and Double properties, as Azure answers
   * {@code Age gt 30} for an Int64 or Double {@code Age}. Nothing else converts: an Int64 literal
   * ({@code 30L}) matches Int64 properties only, a Double literal Double properties only, and no
   * number matches a string.
   */
  public static boolean comparable(PropertyValue stored, PropertyValue literal) {
    if (stored == null) {
      return false;
    }
    return stored.type() == literal.type()
        || literal instanceof PropertyValue.Int32Value
            && (stored instanceof PropertyValue.Int64Value
                || stored instanceof PropertyValue.DoubleValue);
  }

  public static boolean test(
      PropertyValue stored, ComparisonOperator operator, PropertyValue literal) {
    if (!comparable(stored, literal)) {
      return false;
    }
    if (stored instanceof PropertyValue.DoubleValue a
        && literal instanceof PropertyValue.DoubleValue b) {
      return testIeee(a.value(), operator, b.value());
    }
    if (literal instanceof PropertyValue.Int32Value i) {
      if (stored instanceof PropertyValue.DoubleValue d) {
        return testIeee(d.value(), operator, i.value());
      }
      if (stored instanceof PropertyValue.Int64Value l) {
        return operator.holds(Long.compare(l.value(), i.value()));
      }
    }
    return operator.holds(compareSameType(stored, literal));
  }

  // IEEE 754 as .NET and Java primitives do it: NaN is unordered (only ne is true), -0.0 equals
  // 0.0.
  private static boolean testIeee(double a, ComparisonOperator operator, double b) {
    return switch (operator) {
      case EQ -> a == b;
      case NE -> a != b;
      case GT -> a > b;
      case GE -> a >= b;
      case LT -> a < b;
      case LE -> a <= b;
    };
  }

  /**
   * A total order of two values of the same type, for sorting: Doubles by {@link Double#compare}
   * (which orders NaN and -0.0, unlike {@link #test}), strings by UTF-16 code unit, Guids by their
   * canonical string form (equivalently unsigned big-endian bytes, which is also .NET's Guid
   * order), binaries by unsigned bytes with a prefix first, booleans false before true.
   */
  public static int compareSameType(PropertyValue a, PropertyValue b) {
    return switch (a) {
      case PropertyValue.StringValue s ->
          s.value().compareTo(((PropertyValue.StringValue) b).value());
      case PropertyValue.Int32Value i ->
          Integer.compare(i.value(), ((PropertyValue.Int32Value) b).value());
      case PropertyValue.Int64Value l ->
          Long.compare(l.value(), ((PropertyValue.Int64Value) b).value());
      case PropertyValue.DoubleValue d ->
          Double.compare(d.value(), ((PropertyValue.DoubleValue) b).value());
      case PropertyValue.BooleanValue x ->
          Boolean.compare(x.value(), ((PropertyValue.BooleanValue) b).value());
      case PropertyValue.DateTimeValue t ->
          t.value().compareTo(((PropertyValue.DateTimeValue) b).value());
      case PropertyValue.GuidValue g ->
          compareGuids(g.value(), ((PropertyValue.GuidValue) b).value());
      case PropertyValue.BinaryValue x ->
          Arrays.compareUnsigned(x.value(), ((PropertyValue.BinaryValue) b).value());
    };
  }

  private static int compareGuids(UUID a, UUID b) {
    int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
    return high != 0
        ? high
        : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
  }
}
