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
import dev.trestle.filter.FilterExpression.TextComparison;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Schema;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;
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
    return translate(filter, this::entityComparison, this::textComparison);
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

  /**
   * The shape of a filter that compares only PartitionKey and RowKey (null for any other filter):
   * its structure without its literals' values, which are added to {@code binds} in the order its
   * {@link #entities} condition binds them. Such a filter is its own {@link #keyRange}, and filters
   * of one shape render one SQL text.
   */
  public String keyShape(FilterExpression filter, java.util.List<Object> binds) {
    StringBuilder shape = new StringBuilder();
    return keyShape(filter, binds, shape) ? shape.toString() : null;
  }

  private boolean keyShape(
      FilterExpression filter, java.util.List<Object> binds, StringBuilder shape) {
    return switch (filter) {
      case And and ->
          keyShape(and.left(), binds, shape.append("and("))
              && keyShape(and.right(), binds, shape.append(','))
              && shape.append(')') != null;
      case Or or ->
          keyShape(or.left(), binds, shape.append("or("))
              && keyShape(or.right(), binds, shape.append(','))
              && shape.append(')') != null;
      case Not n -> keyShape(n.operand(), binds, shape.append("not(")) && shape.append(')') != null;
      case Constant c -> shape.append(c.value()) != null;
      case Comparison c -> {
        if (!c.property().equals("PartitionKey") && !c.property().equals("RowKey")) {
          yield false;
        }
        shape.append(c.property()).append(' ').append(c.operator()).append(' ');
        if (c.literal() instanceof StringValue s) {
          // as entityComparison binds it
          binds.add(dialect.encodeText(s.value()));
          shape.append('?');
        } else {
          shape.append("false"); // another type never equals a key
        }
        yield true;
      }
      case TextComparison t -> false;
    };
  }

  private static boolean onlyKeys(FilterExpression filter) {
    return switch (filter) {
      case And and -> onlyKeys(and.left()) && onlyKeys(and.right());
      case Or or -> onlyKeys(or.left()) && onlyKeys(or.right());
      case Not n -> onlyKeys(n.operand());
      case Constant c -> true;
      case Comparison c -> c.property().equals("PartitionKey") || c.property().equals("RowKey");
      case TextComparison t -> false; // evaluated row by row, never a key range
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
                : falseCondition(),
        text -> falseCondition());
  }

  private Condition translate(
      FilterExpression filter,
      Function<Comparison, Condition> leaf,
      Function<TextComparison, Condition> textLeaf) {
    return switch (filter) {
      case And and ->
          translate(and.left(), leaf, textLeaf).and(translate(and.right(), leaf, textLeaf));
      case Or or -> translate(or.left(), leaf, textLeaf).or(translate(or.right(), leaf, textLeaf));
      case Not n -> not(translate(n.operand(), leaf, textLeaf));
      case Constant c -> c.value() ? DSL.trueCondition() : falseCondition();
      case Comparison comparison -> leaf.apply(comparison);
      case TextComparison text -> textLeaf.apply(text);
    };
  }

  /**
   * A text test on the stored text, case-mapped in SQL by {@code translate} with {@link
   * CaseMappings} (the same on every database, whatever its collation), the literal as it is. Never
   * NULL: false when the entity lacks the property or holds another type.
   */
  private Condition textComparison(TextComparison comparison) {
    Field<String> stored =
        switch (comparison.property()) {
          case "PartitionKey" -> Schema.PARTITION_KEY;
          case "RowKey" -> Schema.ROW_KEY;
          case "Timestamp" -> null;
          default -> dialect.stringProperty(comparison.property());
        };
    if (stored == null) {
      return falseCondition();
    }
    Field<String> mapped = CaseMappings.of(comparison.textCase()).apply(dialect, stored);
    String literal = dialect.encodeText(comparison.text());
    // Every string starts with, ends with and contains '' (and SQL's position('' in x) varies).
    boolean emptyAffix =
        literal.isEmpty()
            && switch (comparison.operator()) {
              case STARTS_WITH, ENDS_WITH, CONTAINS -> true;
              default -> false;
            };
    Condition test =
        emptyAffix ? stored.isNotNull() : dialect.textTest(mapped, comparison.operator(), literal);
    return DSL.condition("coalesce({0}, false)", test);
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
