package dev.trestle.store.internal.filter;

import static org.jooq.impl.DSL.falseCondition;
import static org.jooq.impl.DSL.not;
import static org.jooq.impl.DSL.val;

import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.DateTimeValue;
import dev.trestle.PropertyValue.Int32Value;
import dev.trestle.PropertyValue.StringValue;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.filter.FilterExpression.Constant;
import dev.trestle.filter.FilterExpression.Not;
import dev.trestle.filter.FilterExpression.Or;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Schema;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Turns a parsed {@code $filter} into one jOOQ condition, every literal a bind value. Each
 * comparison is a condition that is never NULL (false when the entity lacks the property or holds
 * another type), so {@code not} is plain negation, as in the reference evaluator.
 */
public final class FilterTranslator {
  private final Dialect dialect;

  public FilterTranslator(Dialect dialect) {
    this.dialect = dialect;
  }

  /** A condition on the entity table's columns. */
  public Condition entities(FilterExpression filter) {
    return translate(filter, this::entityComparison);
  }

  /**
   * The filter's top-level conjuncts that involve only PartitionKey and RowKey: a condition every
   * match satisfies that an index on the keys can serve (true when there is none). Scans walk this
   * key range.
   */
  public Condition keyRange(FilterExpression filter) {
    return switch (filter) {
      case And and -> keyRange(and.left()).and(keyRange(and.right()));
      default -> onlyKeys(filter) ? entities(filter) : DSL.trueCondition();
    };
  }

  private static boolean onlyKeys(FilterExpression filter) {
    return switch (filter) {
      case And and -> onlyKeys(and.left()) && onlyKeys(and.right());
      case Or or -> onlyKeys(or.left()) && onlyKeys(or.right());
      case Not n -> onlyKeys(n.operand());
      case Constant c -> true;
      case Comparison c -> c.property().equals("PartitionKey") || c.property().equals("RowKey");
    };
  }

  /** A condition on the table catalog, where {@code TableName} is the only property. */
  public Condition tables(FilterExpression filter) {
    return translate(
        filter,
        comparison ->
            comparison.property().equals("TableName")
                    && comparison.literal() instanceof StringValue name
                ? compare(Schema.NAME, comparison.operator(), name.value())
                : falseCondition());
  }

  private Condition translate(
      FilterExpression filter, java.util.function.Function<Comparison, Condition> leaf) {
    return switch (filter) {
      case And and -> translate(and.left(), leaf).and(translate(and.right(), leaf));
      case Or or -> translate(or.left(), leaf).or(translate(or.right(), leaf));
      case Not n -> not(translate(n.operand(), leaf));
      case Constant c -> c.value() ? DSL.trueCondition() : falseCondition();
      case Comparison comparison -> leaf.apply(comparison);
    };
  }

  private Condition entityComparison(Comparison comparison) {
    PropertyValue literal = comparison.literal();
    return switch (comparison.property()) {
      case "PartitionKey" ->
          literal instanceof StringValue s
              ? compare(Schema.PARTITION_KEY, comparison.operator(), dialect.encodeText(s.value()))
              : falseCondition();
      case "RowKey" ->
          literal instanceof StringValue s
              ? compare(Schema.ROW_KEY, comparison.operator(), dialect.encodeText(s.value()))
              : falseCondition();
      case "Timestamp" ->
          literal instanceof DateTimeValue d
              ? compare(Schema.TICKS, comparison.operator(), Ticks.of(d.value()))
              : falseCondition();
      default ->
          literal instanceof Int32Value number
              // An Int32 literal also compares with Int64 values (as integers) and Double values
              // (as a double).
              ? dialect
                  .compareProperty(
                      comparison.property(),
                      EnumSet.of(StoredType.INT32, StoredType.INT64),
                      comparison.operator(),
                      literal)
                  .or(
                      dialect.compareProperty(
                          comparison.property(),
                          EnumSet.of(StoredType.DOUBLE),
                          comparison.operator(),
                          PropertyValue.of((double) number.value())))
              : dialect.compareProperty(
                  comparison.property(), acceptedTypes(literal), comparison.operator(), literal);
    };
  }

  /** The stored types a literal other than Int32 compares with: only its own. */
  static Set<StoredType> acceptedTypes(PropertyValue literal) {
    return EnumSet.of(StoredType.of(literal.type()));
  }

  private static <T> Condition compare(Field<T> column, ComparisonOperator operator, T value) {
    return switch (operator) {
      case EQ -> column.eq(val(value));
      case NE -> column.ne(val(value));
      case GT -> column.gt(val(value));
      case GE -> column.ge(val(value));
      case LT -> column.lt(val(value));
      case LE -> column.le(val(value));
    };
  }
}
