package dev.trestle.store.internal.filter;

import static org.jooq.impl.DSL.falseCondition;
import static org.jooq.impl.DSL.not;
import static org.jooq.impl.DSL.val;

import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.DateTimeValue;
import dev.trestle.PropertyValue.StringValue;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.filter.FilterExpression.Constant;
import dev.trestle.filter.FilterExpression.Not;
import dev.trestle.filter.FilterExpression.Or;
import dev.trestle.filter.FilterExpression.TextComparison;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.TypedComparison;
import java.util.ArrayList;
import java.util.List;
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
    if (onlyProperties(filter)) {
      Condition whole = dialect.propertyFilter(filter);
      if (whole != null) {
        return whole;
      }
    }
    return switch (filter) {
      case And and -> junction(filter, true);
      case Or or -> junction(filter, false);
      case Not n -> not(entities(n.operand()));
      default -> translate(filter, this::entityComparison, this::textComparison);
    };
  }

  /**
   * An {@code and} (or an {@code or}) chain whose property-only members the dialect evaluates as
   * one condition (one function call per row on H2, where each call is a cost of its own), the
   * other members translated one by one; as {@link #translate} does when the dialect has no such
   * condition.
   */
  private Condition junction(FilterExpression filter, boolean and) {
    List<FilterExpression> members = new ArrayList<>();
    flatten(filter, and, members);
    List<FilterExpression> properties = members.stream().filter(m -> onlyProperties(m)).toList();
    Condition grouped =
        properties.size() < 2 || properties.size() == members.size()
            ? null
            : dialect.propertyFilter(
                properties.stream()
                    .reduce((l, r) -> and ? new And(l, r) : new Or(l, r))
                    .orElseThrow());
    if (grouped == null) {
      return switch (filter) {
        case And a -> entities(a.left()).and(entities(a.right()));
        case Or o -> entities(o.left()).or(entities(o.right()));
        default -> throw new IllegalArgumentException("not a junction: " + filter);
      };
    }
    Condition result = grouped;
    for (FilterExpression member : members) {
      if (!properties.contains(member)) {
        result = and ? result.and(entities(member)) : result.or(entities(member));
      }
    }
    return result;
  }

  private static void flatten(FilterExpression filter, boolean and, List<FilterExpression> out) {
    switch (filter) {
      case And a when and -> {
        flatten(a.left(), true, out);
        flatten(a.right(), true, out);
      }
      case Or o when !and -> {
        flatten(o.left(), false, out);
        flatten(o.right(), false, out);
      }
      default -> out.add(filter);
    }
  }

  /** Whether the filter compares user properties only, at least one of them. */
  private static boolean onlyProperties(FilterExpression filter) {
    return switch (filter) {
      case And and ->
          onlyPropertiesOrConstant(and.left())
              && onlyPropertiesOrConstant(and.right())
              && (onlyProperties(and.left()) || onlyProperties(and.right()));
      case Or or ->
          onlyPropertiesOrConstant(or.left())
              && onlyPropertiesOrConstant(or.right())
              && (onlyProperties(or.left()) || onlyProperties(or.right()));
      case Not n -> onlyProperties(n.operand());
      case Constant c -> false;
      case Comparison c -> !isSystemProperty(c.property());
      case TextComparison t -> false;
    };
  }

  private static boolean onlyPropertiesOrConstant(FilterExpression filter) {
    return filter instanceof Constant || onlyProperties(filter);
  }

  private static boolean isSystemProperty(String property) {
    return switch (property) {
      case "PartitionKey", "RowKey", "Timestamp" -> true;
      default -> false;
    };
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
          TypedComparison.of(comparison).stream()
              .map(
                  typed ->
                      dialect.compareProperty(
                          typed.property(),
                          typed.acceptedTypes(),
                          typed.operator(),
                          typed.literal()))
              .reduce(Condition::or)
              .orElseThrow();
    };
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
