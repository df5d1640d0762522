package dev.trestle.store.internal.filter;

import static org.jooq.impl.DSL.val;

import dev.trestle.PropertyValue;
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
import dev.trestle.store.internal.codec.ScalarDocument;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.database.Dialect;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * A filter as a condition on the scalar store's row (its keys and flat document) that every real
 * match satisfies: the necessary bound N. A scan reads the narrow scalar rows with N and decides
 * the exact filter ({@link FilterTranslator#entities}) on the entity rows of N's rows only, so an
 * answer is wrong only if N is not truly necessary. N is built with its dual, the sufficient bound
 * S (true only for real matches), since {@code not} turns one into the other. A value too large to
 * copy (a marker) satisfies N and never S; a comparison the store cannot decide (Timestamp, text
 * functions) is N = true, S = false. Both are never NULL.
 */
public final class ScalarPrefilter {
  private final Dialect dialect;
  private final Field<Object> scalars;
  private final Field<Long> signature;
  private final Field<String> partitionKey;
  private final Field<String> rowKey;

  /** Conditions on the scalar store's row under the alias {@code alias}. */
  public ScalarPrefilter(Dialect dialect, String alias) {
    this.dialect = dialect;
    this.scalars = DSL.field(DSL.name(alias, "scalars"), SQLDataType.OTHER);
    this.signature = DSL.field(DSL.name(alias, "signature"), SQLDataType.BIGINT);
    this.partitionKey = DSL.field(DSL.name(alias, "partition_key"), SQLDataType.VARCHAR);
    this.rowKey = DSL.field(DSL.name(alias, "row_key"), SQLDataType.VARCHAR);
  }

  /**
   * N for the filter, or null when it prefilters nothing on the store's values (always true, or on
   * the keys alone, which the entity table's key walk serves as well).
   */
  public Condition necessary(FilterExpression filter) {
    Term necessary = bounds(filter).necessary();
    if (!necessary.scalars()) {
      return null;
    }
    Term signed = signed(filter);
    // A row whose signature rules it out is never looked into: the test of one bigint costs a
    // fraction of a lookup in the document (CASE, since the planner orders a condition's terms by
    // its own cost estimates).
    return signed == Term.TRUE
        ? necessary.sql()
        : DSL.condition("case when {0} then {1} else false end", signed.sql(), necessary.sql());
  }

  /**
   * A condition on the row's signature alone that every real match satisfies: the equalities on
   * String values of {@value ScalarDocument#MAX_COPIED} characters or fewer, as their bits ({@link
   * ScalarDocument#stringBits}), under {@code and} and {@code or}; true for anything else.
   */
  private Term signed(FilterExpression filter) {
    return switch (filter) {
      case And and -> Term.and(signed(and.left()), signed(and.right()));
      case Or or -> Term.or(signed(or.left()), signed(or.right()));
      case Constant c -> c.value() ? Term.TRUE : Term.FALSE;
      case Not not -> Term.TRUE; // a signature says what a row may hold, never what it lacks
      case TextComparison text -> Term.TRUE;
      case Comparison comparison -> signed(comparison);
    };
  }

  private Term signed(Comparison comparison) {
    String name = comparison.property();
    if (comparison.operator() != ComparisonOperator.EQ
        || !(comparison.literal() instanceof StringValue literal)
        || name.equals("PartitionKey")
        || name.equals("RowKey")
        || name.equals("Timestamp")) {
      return Term.TRUE;
    }
    String stored = dialect.encodeText(literal.value());
    if (stored.codePointCount(0, stored.length()) > ScalarDocument.MAX_COPIED) {
      return Term.TRUE; // only a value too large to copy can equal it: no bits of its own
    }
    Field<Long> bits = val(ScalarDocument.stringBits(name, stored));
    return new Term(DSL.condition("({0} & {1}) = {1}", signature, bits), true);
  }

  /** S for the filter, as a condition (for tests of the duality). */
  Condition sufficient(FilterExpression filter) {
    return bounds(filter).sufficient().sql();
  }

  private Bounds bounds(FilterExpression filter) {
    return switch (filter) {
      case And and -> {
        Bounds left = bounds(and.left());
        Bounds right = bounds(and.right());
        yield new Bounds(
            Term.and(left.necessary(), right.necessary()),
            Term.and(left.sufficient(), right.sufficient()));
      }
      case Or or -> {
        Bounds left = bounds(or.left());
        Bounds right = bounds(or.right());
        yield new Bounds(
            Term.or(left.necessary(), right.necessary()),
            Term.or(left.sufficient(), right.sufficient()));
      }
      case Not not -> {
        Bounds operand = bounds(not.operand());
        yield new Bounds(Term.not(operand.sufficient()), Term.not(operand.necessary()));
      }
      case Constant c -> c.value() ? Bounds.ALWAYS : Bounds.NEVER;
      case TextComparison text -> Bounds.UNDECIDED;
      case Comparison comparison -> comparison(comparison);
    };
  }

  private Bounds comparison(Comparison comparison) {
    PropertyValue literal = comparison.literal();
    ComparisonOperator operator = comparison.operator();
    return switch (comparison.property()) {
      // as FilterTranslator compares the keys, on the store's copy of them
      case "PartitionKey" -> keyComparison(partitionKey, operator, literal);
      case "RowKey" -> keyComparison(rowKey, operator, literal);
      case "Timestamp" -> Bounds.UNDECIDED; // the version's ticks are not in the store
      default -> {
        String name = comparison.property();
        // An Int32 literal also compares with Int64 values and Double values, as translated.
        Set<StoredType> types =
            literal instanceof Int32Value
                ? EnumSet.of(StoredType.INT32, StoredType.INT64, StoredType.DOUBLE)
                : EnumSet.of(StoredType.of(literal.type()));
        // a value too large to copy (strings and binaries) may or may not compare
        yield new Bounds(
            new Term(dialect.compareScalar(scalars, types, name, operator, literal, true), true),
            new Term(dialect.compareScalar(scalars, types, name, operator, literal, false), true));
      }
    };
  }

  private Bounds keyComparison(
      Field<String> key, ComparisonOperator operator, PropertyValue literal) {
    if (!(literal instanceof StringValue s)) {
      return Bounds.NEVER; // another type never equals a key
    }
    Field<String> value = val(dialect.encodeText(s.value()));
    Condition compared =
        switch (operator) {
          case EQ -> key.eq(value);
          case NE -> key.ne(value);
          case GT -> key.gt(value);
          case GE -> key.ge(value);
          case LT -> key.lt(value);
          case LE -> key.le(value);
        };
    Term exact = new Term(compared, false);
    return new Bounds(exact, exact);
  }

  /** N and S of one filter. */
  private record Bounds(Term necessary, Term sufficient) {
    static final Bounds ALWAYS = new Bounds(Term.TRUE, Term.TRUE);
    static final Bounds NEVER = new Bounds(Term.FALSE, Term.FALSE);
    static final Bounds UNDECIDED = new Bounds(Term.TRUE, Term.FALSE);
  }

  /**
   * A condition, whether it tests the store's values ({@code scalars}), and the two constants
   * (compared by identity), folded away so that an N that tests nothing is seen to be true.
   */
  private record Term(Condition sql, boolean scalars) {
    static final Term TRUE = new Term(DSL.trueCondition(), false);
    static final Term FALSE = new Term(DSL.falseCondition(), false);

    static Term and(Term a, Term b) {
      if (a == FALSE || b == FALSE) {
        return FALSE;
      }
      return a == TRUE ? b : b == TRUE ? a : new Term(a.sql.and(b.sql), a.scalars || b.scalars);
    }

    static Term or(Term a, Term b) {
      if (a == TRUE || b == TRUE) {
        return TRUE;
      }
      return a == FALSE ? b : b == FALSE ? a : new Term(a.sql.or(b.sql), a.scalars || b.scalars);
    }

    static Term not(Term a) {
      return a == TRUE ? FALSE : a == FALSE ? TRUE : new Term(DSL.not(a.sql), a.scalars);
    }
  }
}
