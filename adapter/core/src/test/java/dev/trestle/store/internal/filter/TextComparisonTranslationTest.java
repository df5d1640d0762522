package dev.trestle.store.internal.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.h2.H2DatabaseType;
import dev.trestle.store.internal.postgresql.PostgresDatabaseType;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The text functions become SQL without a LIKE pattern or a locale-dependent case mapping, every
 * literal (pattern characters included) a bind value.
 */
class TextComparisonTranslationTest {
  private static final List<Dialect> DIALECTS =
      List.of(new H2DatabaseType().dialect(), new PostgresDatabaseType().dialect());

  private static String rendered(Dialect dialect, Condition condition) {
    return DSL.using(dialect.sqlDialect()).render(condition).toLowerCase();
  }

  @Test
  void patternCharactersAreBoundAsTheyAre() {
    for (Dialect dialect : DIALECTS) {
      Condition condition =
          new FilterTranslator(dialect)
              .entities(FilterParser.parseExtended("contains(Name,'%_\\') or endswith(Name,'%')"));
      DSLContext context = DSL.using(dialect.sqlDialect());

      assertThat(rendered(dialect, condition)).doesNotContain("like").doesNotContain("%");
      assertThat(context.extractBindValues(condition)).contains("Name", "%_\\", "%");
    }
  }

  @Test
  void caseMappingUsesATranslationTable() {
    for (Dialect dialect : DIALECTS) {
      Condition condition =
          new FilterTranslator(dialect)
              .entities(FilterParser.parseExtended("tolower(Name) eq 'straße'"));
      String sql = rendered(dialect, condition);

      assertThat(sql).contains("translate(");
      assertThat(DSL.using(dialect.sqlDialect()).extractBindValues(condition))
          .as("the literal is bound as written")
          .contains("straße");
    }
  }

  @Test
  void anEmptyAffixOnlyAsksForAString() {
    for (Dialect dialect : DIALECTS) {
      String sql =
          rendered(
              dialect,
              new FilterTranslator(dialect)
                  .entities(FilterParser.parseExtended("contains(Name,'')")));

      assertThat(sql).contains("is not null").doesNotContain("position");
    }
  }
}
