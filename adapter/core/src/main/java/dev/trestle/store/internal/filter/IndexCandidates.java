package dev.trestle.store.internal.filter;

import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.Constant;
import dev.trestle.filter.FilterExpression.Not;
import dev.trestle.filter.FilterExpression.Or;
import dev.trestle.store.internal.database.DeclaredIndex;
import dev.trestle.store.internal.database.IndexBuilder;
import dev.trestle.store.internal.database.ValueKind;
import java.util.List;
import org.jooq.Condition;
import org.jooq.impl.DSL;

/**
 * The rows a filter can match at all, as a condition that a table's declared indexes serve: a
 * necessary condition only (the exact filter still decides), so the answers are the same with or
 * without the indexes. An {@code and} needs one side served, an {@code or} both; comparisons of the
 * keys count as served (by the key index) inside an {@code or}, so {@code PartitionKey eq 'a' or
 * Price eq 7} reads two indexes. A comparison of a further property of an index over several
 * narrows only beside its first property under {@code and}: {@code Category eq 'c7' and Price gt
 * 990} reads the index over (Category, Price) for both, where {@code Price gt 990} alone or in an
 * {@code or} is no condition an index serves. Under {@code not} nothing is narrowed: an entity
 * without the property, or with another type, matches a negation, and no index holds it.
 */
public final class IndexCandidates {
  private final List<DeclaredIndex> indexes;
  private final IndexBuilder builder;
  private final FilterTranslator translator;

  public IndexCandidates(
      List<DeclaredIndex> indexes, IndexBuilder builder, FilterTranslator translator) {
    this.indexes = indexes;
    this.builder = builder;
    this.translator = translator;
  }

  /** The condition, or null when the filter has no comparison that a declared index serves. */
  public Condition of(FilterExpression filter) {
    if (filter == null || indexes.isEmpty()) {
      return null;
    }
    Narrowing narrowing = narrow(filter);
    return narrowing != null && narrowing.throughIndex ? narrowing.condition : null;
  }

  /**
   * A necessary condition, whether a declared index serves part of it, and whether an index (a
   * declared one or the key's) can read all of it; null: none.
   */
  private record Narrowing(Condition condition, boolean throughIndex, boolean readable) {}

  private Narrowing narrow(FilterExpression filter) {
    return switch (filter) {
      case And and -> {
        Narrowing left = narrow(and.left());
        Narrowing right = narrow(and.right());
        if (left == null || right == null) {
          yield left == null ? right : left;
        }
        yield new Narrowing(
            left.condition.and(right.condition),
            left.throughIndex || right.throughIndex,
            left.readable || right.readable);
      }
      case Or or -> {
        Narrowing left = narrow(or.left());
        Narrowing right = narrow(or.right());
        yield left == null || right == null || !left.readable || !right.readable
            ? null
            : new Narrowing(
                left.condition.or(right.condition), left.throughIndex || right.throughIndex, true);
      }
      case Not n -> null;
      case Constant c -> c.value() ? null : new Narrowing(DSL.falseCondition(), false, true);
      case Comparison c -> comparison(c);
      case FilterExpression.TextComparison t -> null; // no index holds case-mapped or inner text
    };
  }

  private Narrowing comparison(Comparison comparison) {
    String property = comparison.property();
    if (property.equals("PartitionKey") || property.equals("RowKey")) {
      return new Narrowing(translator.entities(comparison), false, true);
    }
    ValueKind kind =
        property.equals("Timestamp")
            ? ValueKind.TIMESTAMP
            : ValueKind.ofLiteral(comparison.literal());
    for (DeclaredIndex index : indexes) {
      if (index.serves(property, kind)) {
        Condition condition =
            builder.candidates(index.columns().get(0), comparison.operator(), comparison.literal());
        return condition == null ? null : new Narrowing(condition, true, true);
      }
    }
    for (DeclaredIndex index : indexes) {
      for (DeclaredIndex.Column column : index.then()) {
        if (column.property().equals(property) && column.kind() == kind) {
          // the index reads this condition only together with one on its first property
          Condition condition =
              builder.candidates(column, comparison.operator(), comparison.literal());
          return condition == null ? null : new Narrowing(condition, false, false);
        }
      }
    }
    return null;
  }
}
