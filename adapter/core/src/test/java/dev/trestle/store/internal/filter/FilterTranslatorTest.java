package dev.trestle.store.internal.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.h2.H2DatabaseType;
import dev.trestle.store.internal.postgresql.PostgresDatabaseType;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The SQL text and bind values the translator produces on each dialect, pinned for representative
 * filters, so that a change to the generated SQL is a visible, reviewed change. Every literal is a
 * bind value.
 */
class FilterTranslatorTest {
  private static final Dialect H2 = new H2DatabaseType().dialect();
  private static final Dialect POSTGRES = new PostgresDatabaseType().dialect();

  /**
   * H2's evaluation of comparisons of user properties in one call per row: properties, the filter
   * as one bound text (see h2.FilterProgram: operator's ordinal, property, accepted type tags,
   * literal's tag, literal's text).
   */
  private static final String H2_MATCHES = "(trestle_matches(\"properties\", cast(? as varchar)))";

  private static void assertEntities(
      Dialect dialect, String filter, String sql, Object... bindValues) {
    assertRendered(
        dialect,
        new FilterTranslator(dialect).entities(FilterParser.parse(filter)),
        sql,
        bindValues);
  }

  private static void assertRendered(
      Dialect dialect, Condition condition, String sql, Object... bindValues) {
    DSLContext context = DSL.using(dialect.sqlDialect());
    assertThat(context.render(condition)).isEqualTo(sql);
    assertThat(context.extractBindValues(condition)).containsExactly(bindValues);
  }

  @Test
  void partitionKeyEquality() {
    String filter = "PartitionKey eq 'p1'";
    assertEntities(H2, filter, "\"partition_key\" = cast(? as varchar)", "p1");
    assertEntities(POSTGRES, filter, "\"partition_key\" = ?", "p1");
  }

  @Test
  void keyRange() {
    String filter = "PartitionKey eq 'p' and RowKey ge '10' and RowKey lt '20'";
    assertEntities(
        H2,
        filter,
        "(\"partition_key\" = cast(? as varchar) and \"row_key\" >= cast(? as varchar)"
            + " and \"row_key\" < cast(? as varchar))",
        "p",
        "10",
        "20");
    assertEntities(
        POSTGRES,
        filter,
        "(\"partition_key\" = ? and \"row_key\" >= ? and \"row_key\" < ?)",
        "p",
        "10",
        "20");
  }

  @Test
  void keysAreBoundInTheDialectsTextEncoding() {
    String filter = "RowKey lt 'a\uE000'";
    assertEntities(H2, filter, "\"row_key\" < cast(? as varchar)", "a\uE000");
    assertEntities(POSTGRES, filter, "\"row_key\" < ?", "a\uE800");
  }

  @Test
  void keyRangeOfAFilterKeepsOnlyTheKeyConjuncts() {
    String filter = "PartitionKey eq 'p' and Age gt 3 and RowKey lt 'z'";
    assertRendered(
        H2,
        new FilterTranslator(H2).keyRange(FilterParser.parse(filter)),
        "(\"partition_key\" = cast(? as varchar) and true and \"row_key\" < cast(? as varchar))",
        "p",
        "z");
    assertRendered(
        POSTGRES,
        new FilterTranslator(POSTGRES).keyRange(FilterParser.parse(filter)),
        "(\"partition_key\" = ? and true and \"row_key\" < ?)",
        "p",
        "z");
  }

  @Test
  void timestampComparesTheTicksColumn() {
    String filter = "Timestamp lt datetime'2020-01-01T00:00:00Z'";
    assertEntities(H2, filter, "\"ticks\" < cast(? as bigint)", 15778368000000000L);
    assertEntities(POSTGRES, filter, "\"ticks\" < ?", 15778368000000000L);
  }

  @Test
  void stringWithAQuoteIsOneBindValue() {
    String filter = "Name eq 'O''Brien'";
    assertEntities(H2, filter, H2_MATCHES, "c04:Name1:ss7:O'Brien");
    assertEntities(
        POSTGRES,
        filter,
        "(case when \"properties\" -> ? ->> 0 in ('s')"
            + " then (\"properties\" -> ? ->> 1) collate \"C\" = ? else false end)",
        "Name",
        "Name",
        "O'Brien");
  }

  @Test
  void int32AlsoComparesWithInt64AndDoubleValues() {
    String filter = "Age gt 30";
    assertEntities(H2, filter, H2_MATCHES, "|c23:Age2:ili2:30c23:Age1:dd4:30.0");
    assertEntities(
        POSTGRES,
        filter,
        "((case when \"properties\" -> ? ->> 0 in ('i', 'l')"
            + " then cast(\"properties\" -> ? ->> 1 as bigint) > ? else false end)"
            + " or (case when \"properties\" -> ? ->> 0 in ('d') then (\"properties\" -> ? ->> 1 <> 'NaN'"
            + " and cast(\"properties\" -> ? ->> 1 as float8) > cast(? as double precision)) else false end))",
        "Age",
        "Age",
        30L,
        "Age",
        "Age",
        "Age",
        30.0);
  }

  @Test
  void int64() {
    String filter = "Big le 5000000000L";
    assertEntities(H2, filter, H2_MATCHES, "c53:Big1:ll10:5000000000");
    assertEntities(
        POSTGRES,
        filter,
        "(case when \"properties\" -> ? ->> 0 in ('l')"
            + " then cast(\"properties\" -> ? ->> 1 as bigint) <= ? else false end)",
        "Big",
        "Big",
        5000000000L);
  }

  @Test
  void doubleKeepsNaNOutOfOrderedComparisons() {
    String filter = "Price lt 9.5";
    assertEntities(H2, filter, H2_MATCHES, "c45:Price1:dd3:9.5");
    assertEntities(
        POSTGRES,
        filter,
        "(case when \"properties\" -> ? ->> 0 in ('d') then (\"properties\" -> ? ->> 1"
            + " <> 'NaN' and cast(\"properties\" -> ? ->> 1 as float8) < cast(? as double precision)) else false end)",
        "Price",
        "Price",
        "Price",
        9.5);
  }

  @Test
  void booleanValue() {
    String filter = "Active eq true";
    assertEntities(H2, filter, H2_MATCHES, "c06:Active1:bb4:true");
    assertEntities(
        POSTGRES,
        filter,
        "(case when \"properties\" -> ? ->> 0 in ('b')"
            + " then cast(\"properties\" -> ? ->> 1 as boolean) = ? else false end)",
        "Active",
        "Active",
        true);
  }

  @Test
  void dateTimeComparesTicks() {
    String filter = "Born ge datetime'2020-01-01T00:00:00Z'";
    assertEntities(H2, filter, H2_MATCHES, "c34:Born1:tt17:15778368000000000");
    assertEntities(
        POSTGRES,
        filter,
        "(case when \"properties\" -> ? ->> 0 in ('t')"
            + " then cast(\"properties\" -> ? ->> 1 as bigint) >= ? else false end)",
        "Born",
        "Born",
        15778368000000000L);
  }

  @Test
  void guidAndBinaryCompareAsLowerCaseText() {
    String guid = "Id eq guid'0F8FAD5B-D9CB-469F-A165-70867728950E'";
    assertEntities(H2, guid, H2_MATCHES, "c02:Id1:gg36:0f8fad5b-d9cb-469f-a165-70867728950e");
    assertEntities(
        POSTGRES,
        guid,
        "(case when \"properties\" -> ? ->> 0 in ('g')"
            + " then (\"properties\" -> ? ->> 1) collate \"C\" = ? else false end)",
        "Id",
        "Id",
        "0f8fad5b-d9cb-469f-a165-70867728950e");

    String binary = "Data eq X'0AFF'";
    assertEntities(H2, binary, H2_MATCHES, "c04:Data1:xx4:0aff");
    assertEntities(
        POSTGRES,
        binary,
        "(case when \"properties\" -> ? ->> 0 in ('x')"
            + " then (\"properties\" -> ? ->> 1) collate \"C\" = ? else false end)",
        "Data",
        "Data",
        "0aff");
  }

  @Test
  void propertyComparisonsOfAnAndChainAreOneCallOnH2() {
    String filter = "Price gt 990 and PartitionKey eq 'p' and Category eq 'c7'";
    assertEntities(
        H2,
        filter,
        "(" + H2_MATCHES + " and \"partition_key\" = cast(? as varchar))",
        "&|c25:Price2:ili3:990c25:Price1:dd5:990.0c08:Category1:ss2:c7",
        "p");
  }

  @Test
  void notAndOr() {
    String filter = "not (A eq 'x') or B ne 'y' and PartitionKey gt 'k'";
    assertEntities(
        H2,
        filter,
        "(" + H2_MATCHES + " or (" + H2_MATCHES + " and \"partition_key\" > cast(? as varchar)))",
        "!c01:A1:ss1:x",
        "c11:B1:ss1:y",
        "k");
    assertEntities(
        POSTGRES,
        filter,
        "(not (case when \"properties\" -> ? ->> 0 in ('s')"
            + " then (\"properties\" -> ? ->> 1) collate \"C\" = ? else false end)"
            + " or ((case when \"properties\" -> ? ->> 0 in ('s')"
            + " then (\"properties\" -> ? ->> 1) collate \"C\" <> ? else false end) and \"partition_key\" > ?))",
        "A",
        "A",
        "x",
        "B",
        "B",
        "y",
        "k");
  }
}
