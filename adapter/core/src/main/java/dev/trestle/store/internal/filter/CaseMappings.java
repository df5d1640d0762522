package dev.trestle.store.internal.filter;

import dev.trestle.filter.FilterExpression.TextCase;
import dev.trestle.store.internal.database.Dialect;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * A {@link TextCase} as SQL: {@code translate(text, from, to)} with every BMP unit that the case
 * maps to another unit, so H2 and PostgreSQL map exactly as the reference evaluator does, unlike
 * {@code lower()}, which follows the database's locale (PostgreSQL's ctype: under {@code C.UTF-8}
 * {@code lower('Ä')} is {@code 'ä'}, under {@code COLLATE "C"} it stays {@code 'Ä'}).
 */
final class CaseMappings {
  private static final CaseMappings AS_IS = new CaseMappings(TextCase.AS_IS, "", "");
  private static final CaseMappings LOWER = build(TextCase.LOWER);
  private static final CaseMappings UPPER = build(TextCase.UPPER);

  private final TextCase textCase;
  private final String from;
  private final String to;
  private final String asciiFrom;
  private final String asciiTo;

  private CaseMappings(TextCase textCase, String from, String to) {
    this.textCase = textCase;
    this.from = from;
    this.to = to;
    StringBuilder asciiFrom = new StringBuilder();
    StringBuilder asciiTo = new StringBuilder();
    for (int i = 0; i < from.length() && from.charAt(i) < 0x80; i++) {
      asciiFrom.append(from.charAt(i));
      asciiTo.append(to.charAt(i));
    }
    this.asciiFrom = asciiFrom.toString();
    this.asciiTo = asciiTo.toString();
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
    // translate() compares each character with each of the table's (PostgreSQL: 0.4 ms per row
    // with the whole table), so ASCII text, where octet and character lengths agree, takes the
    // 26 letters only (ASCII letters map only to ASCII letters), or the dialect's faster way.
    Field<String> ascii = dialect.asciiCase(stored, textCase);
    return DSL.field(
        "case when octet_length({0}) = char_length({0}) then {1} else translate({0}, {2}, {3}) end",
        SQLDataType.VARCHAR,
        stored,
        ascii != null
            ? ascii
            : DSL.field(
                "translate({0}, {1}, {2})",
                SQLDataType.VARCHAR, stored, DSL.val(asciiFrom), DSL.val(asciiTo)),
        DSL.val(dialect.encodeText(from)),
        DSL.val(dialect.encodeText(to)));
  }
}
