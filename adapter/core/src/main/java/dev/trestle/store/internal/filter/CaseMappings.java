package dev.trestle.store.internal.filter;

import dev.trestle.filter.FilterExpression.TextCase;
import dev.trestle.store.internal.database.Dialect;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * A {@link TextCase} as SQL: {@code translate(text, from, to)} with every BMP unit that the case
 * maps to another unit, so H2 and PostgreSQL map exactly as the reference evaluator does, unlike
 * {@code lower()}, which follows the database's locale (PostgreSQL's ctype).
 */
final class CaseMappings {
  private static final CaseMappings AS_IS = new CaseMappings(TextCase.AS_IS, "", "");
  private static final CaseMappings LOWER = build(TextCase.LOWER);
  private static final CaseMappings UPPER = build(TextCase.UPPER);

  private final TextCase textCase;
  private final String from;
  private final String to;

  private CaseMappings(TextCase textCase, String from, String to) {
    this.textCase = textCase;
    this.from = from;
    this.to = to;
  }

  static CaseMappings of(TextCase textCase) {
    return switch (textCase) {
      case AS_IS -> AS_IS;
      case LOWER -> LOWER;
      case UPPER -> UPPER;
    };
  }

  private static CaseMappings build(TextCase textCase) {
    StringBuilder from = new StringBuilder();
    StringBuilder to = new StringBuilder();
    for (char unit = 0; unit < Character.MAX_VALUE; unit++) {
      char mapped = textCase.map(unit);
      if (mapped != unit && !Character.isSurrogate(unit)) {
        from.append(unit);
        to.append(mapped);
      }
    }
    return new CaseMappings(textCase, from.toString(), to.toString());
  }

  /** The stored text (the dialect's form) with each unit mapped. */
  Field<String> apply(Dialect dialect, Field<String> stored) {
    if (textCase == TextCase.AS_IS) {
      return stored;
    }
    return DSL.field(
        "translate({0}, {1}, {2})",
        SQLDataType.VARCHAR,
        stored,
        DSL.val(dialect.encodeText(from)),
        DSL.val(dialect.encodeText(to)));
  }
}
