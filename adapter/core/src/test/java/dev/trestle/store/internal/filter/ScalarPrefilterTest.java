package dev.trestle.store.internal.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.codec.ScalarDocument;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.postgresql.PostgresDatabaseType;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The scalar store's prefilter N (and its dual S) as rendered for PostgreSQL: each kind of
 * comparison, markers of long strings and binaries, the Int32 literal's three keys, NaN, and the
 * duality under {@code not}. Its exactness on data is the differential test's.
 */
class ScalarPrefilterTest {
  private static final Dialect POSTGRES = new PostgresDatabaseType().dialect();
  private static final ScalarPrefilter PREFILTER = new ScalarPrefilter(POSTGRES, "s");
  private static final DSLContext SQL = DSL.using(POSTGRES.sqlDialect());

  /** A string key's text. */
  private static final String TEXT = "\"s\".\"scalars\" ->> ?";

  private static void assertNecessary(String filter, String sql, Object... binds) {
    assertRendered(PREFILTER.necessary(FilterParser.parse(filter)), sql, binds);
  }

  private static void assertSufficient(String filter, String sql, Object... binds) {
    assertRendered(PREFILTER.sufficient(FilterParser.parse(filter)), sql, binds);
  }

  private static void assertRendered(Condition condition, String sql, Object... binds) {
    assertThat(condition).isNotNull();
    assertThat(SQL.render(condition)).isEqualTo(sql);
    assertThat(SQL.extractBindValues(condition)).containsExactly(binds);
  }

  /** The signature test of a String equality's bits. */
  private static final String SIGNED = "((\"s\".\"signature\" & ?) = ?)";

  private static String signedFirst(String signature, String necessary) {
    return "(case when " + signature + " then " + necessary + " else false end)";
  }

  @Test
  void stringEqualityPassesItsValueOrAMarkerInOneLookup() {
    // a marker reads as the text 'true'; the signature is tested first
    long bits = ScalarDocument.stringBits("Name", "x");
    assertNecessary(
        "Name eq 'x'",
        signedFirst(SIGNED, "(coalesce((" + TEXT + ") collate \"C\" in (?, 'true'), false))"),
        bits,
        bits,
        "sName",
        "x");
    // 'true' is not 'x': a marker never passes the comparison
    assertSufficient(
        "Name eq 'x'", "(coalesce(((" + TEXT + ") collate \"C\" = ?), false))", "sName", "x");
  }

  @Test
  void signaturesTestStringEqualitiesUnderAndAndOrOnly() {
    long x = ScalarDocument.stringBits("A", "x");
    long y = ScalarDocument.stringBits("B", "y");
    String a = "(coalesce((" + TEXT + ") collate \"C\" in (?, 'true'), false))";
    assertNecessary(
        "A eq 'x' and B eq 'y'",
        signedFirst("(" + SIGNED + " and " + SIGNED + ")", "(" + a + " and " + a + ")"),
        x,
        x,
        y,
        y,
        "sA",
        "x",
        "sB",
        "y");
    assertNecessary(
        "A eq 'x' or B eq 'y'",
        signedFirst("(" + SIGNED + " or " + SIGNED + ")", "(" + a + " or " + a + ")"),
        x,
        x,
        y,
        y,
        "sA",
        "x",
        "sB",
        "y");
    // an equality with no bits of its own under or: the signature rules nothing out
    assertThat(SQL.render(PREFILTER.necessary(FilterParser.parse("A eq 'x' or N eq 1"))))
        .doesNotContain("signature");
    // what a row lacks is not in its signature
    assertThat(SQL.render(PREFILTER.necessary(FilterParser.parse("not (A eq 'x')"))))
        .doesNotContain("signature");
    assertThat(SQL.render(PREFILTER.necessary(FilterParser.parse("A ne 'x' and A gt 'a'"))))
        .doesNotContain("signature");
    // a literal longer than what the store copies can only equal a marker, which sets no bits
    assertThat(
            SQL.render(
                PREFILTER.necessary(
                    FilterParser.parse(
                        "A eq '" + "a".repeat(ScalarDocument.MAX_COPIED + 1) + "'"))))
        .doesNotContain("signature");
    assertThat(
            SQL.render(
                PREFILTER.necessary(
                    FilterParser.parse("A eq '" + "a".repeat(ScalarDocument.MAX_COPIED) + "'"))))
        .contains("signature");
    // other types, keys and Timestamp set no bits
    assertThat(
            SQL.render(
                PREFILTER.necessary(
                    FilterParser.parse(
                        "G eq guid'0f8fad5b-d9cb-469f-a165-70867728950e' and PartitionKey eq 'p'"
                            + " and N eq 1"))))
        .doesNotContain("signature");
  }

  @Test
  void aLiteralThatTheMarkersTextPassesNeedsTheMarkerTestOnlyInTheSufficientBound() {
    String compared = "((" + TEXT + ") collate \"C\" > ?)";
    assertNecessary("Name gt 'a'", "(coalesce(" + compared + ", false))", "sName", "a");
    assertSufficient(
        "Name gt 'a'",
        "(coalesce("
            + compared
            + " and ("
            + TEXT
            + " <> 'true' or \"s\".\"scalars\" -> ? <> cast('true' as jsonb)), false))",
        "sName",
        "a",
        "sName",
        "sName");
    assertSufficient(
        "Name eq 'true'",
        "(coalesce((("
            + TEXT
            + ") collate \"C\" = ?) and ("
            + TEXT
            + " <> 'true'"
            + " or \"s\".\"scalars\" -> ? <> cast('true' as jsonb)), false))",
        "sName",
        "true",
        "sName",
        "sName");
  }

  @Test
  void aLiteralThatTheMarkersTextFailsNeedsTheMarkerTestOnlyInTheNecessaryBound() {
    String compared = "((" + TEXT + ") collate \"C\" < ?)";
    assertNecessary(
        "Name lt 'a'",
        "(coalesce(" + compared + " or " + TEXT + " = 'true', false))",
        "sName",
        "a",
        "sName");
    assertSufficient("Name lt 'a'", "(coalesce(" + compared + ", false))", "sName", "a");
  }

  @Test
  void binaryEqualityPassesItsValueOrAMarker() {
    assertNecessary(
        "Data eq X'00ff'",
        "(coalesce((" + TEXT + ") collate \"C\" in (?, 'true'), false))",
        "xData",
        "00ff");
  }

  @Test
  void notOfAStringComparisonIsNotOfItsSufficientBound() {
    // a marked value may or may not equal the literal, so it passes "not eq" too
    assertNecessary(
        "not (Name eq 'x')",
        "not (coalesce(((" + TEXT + ") collate \"C\" = ?), false))",
        "sName",
        "x");
    assertSufficient(
        "not (Name eq 'x')",
        "not (coalesce((" + TEXT + ") collate \"C\" in (?, 'true'), false))",
        "sName",
        "x");
  }

  @Test
  void int32ComparesTheInt32AndInt64KeysAndTheDoubleKeyOnlyWhereNeitherExists() {
    assertNecessary(
        "Price gt 990",
        "(coalesce((cast(coalesce(\"s\".\"scalars\" ->> ?, \"s\".\"scalars\" ->> ?) as bigint) >"
            + " ?), ((\"s\".\"scalars\" ->> ? <> 'NaN' and cast(\"s\".\"scalars\" ->> ? as"
            + " float8) > cast(? as double precision))), false))",
        "iPrice",
        "lPrice",
        990L,
        "dPrice",
        "dPrice",
        990.0);
  }

  @Test
  void int64AndDateTimeAndBooleanAndGuidCompareTheirOwnKeyOnly() {
    assertNecessary(
        "Sku le 5L",
        "(coalesce((cast(\"s\".\"scalars\" ->> ? as bigint) <= ?), false))",
        "lSku",
        5L);
    assertNecessary(
        "Created ge datetime'2020-01-01T00:00:00Z'",
        "(coalesce((cast(\"s\".\"scalars\" ->> ? as bigint) >= ?), false))",
        "tCreated",
        15778368000000000L);
    assertNecessary(
        "Active eq true",
        "(coalesce((cast(\"s\".\"scalars\" ->> ? as boolean) = ?), false))",
        "bActive",
        true);
    assertNecessary(
        "Uid eq guid'00000000-0000-0000-0000-000000000001'",
        "(coalesce(((\"s\".\"scalars\" ->> ?) collate \"C\" = ?), false))",
        "gUid",
        "00000000-0000-0000-0000-000000000001");
  }

  @Test
  void doublesKeepTheNanRules() {
    assertNecessary(
        "Ratio ne 1.5",
        "(coalesce(((\"s\".\"scalars\" ->> ? = 'NaN' or cast(\"s\".\"scalars\" ->> ? as float8)"
            + " <> cast(? as double precision))), false))",
        "dRatio",
        "dRatio",
        1.5);
    // only ne holds against NaN, for every double
    assertNecessary("Ratio ne NaN", "((\"s\".\"scalars\" -> ?) is not null)", "dRatio");
  }

  @Test
  void keysCompareTheStoredKeysOfTheScalarRow() {
    // keys alone prefilter nothing the entity table's key walk does not
    assertThat(PREFILTER.necessary(FilterParser.parse("PartitionKey eq 'p'"))).isNull();
    assertNecessary(
        "PartitionKey eq 'p' and Active eq true",
        "(\"s\".\"partition_key\" = ? and (coalesce((cast(\"s\".\"scalars\" ->> ? as boolean) = ?),"
            + " false)))",
        "p",
        "bActive",
        true);
  }

  @Test
  void whatTheStoreCannotDecideIsNecessaryButNeverSufficient() {
    String timestamp = "Timestamp lt datetime'2020-01-01T00:00:00Z'";
    assertThat(PREFILTER.necessary(FilterParser.parse(timestamp))).isNull();
    assertThat(PREFILTER.necessary(FilterParser.parse("Active eq true or " + timestamp))).isNull();
    assertNecessary(
        "Active eq true and " + timestamp,
        "(coalesce((cast(\"s\".\"scalars\" ->> ? as boolean) = ?), false))",
        "bActive",
        true);
    // not (Timestamp ...) is not (S = false): still necessary-true
    assertThat(PREFILTER.necessary(FilterParser.parse("not (" + timestamp + ")"))).isNull();
    assertNecessary(
        "Active eq true and not (" + timestamp + ")",
        "(coalesce((cast(\"s\".\"scalars\" ->> ? as boolean) = ?), false))",
        "bActive",
        true);
    // or with an undecided side under not: not (a or t) = not a and not t, N = not S(a) and true
    assertNecessary(
        "not (Active eq true or " + timestamp + ")",
        "not (coalesce((cast(\"s\".\"scalars\" ->> ? as boolean) = ?), false))",
        "bActive",
        true);
  }

  @Test
  void constantsFold() {
    assertThat(PREFILTER.necessary(FilterParser.parse("true"))).isNull();
    assertThat(PREFILTER.necessary(FilterParser.parse("Active eq true or true"))).isNull();
    assertNecessary(
        "Active eq true and true",
        "(coalesce((cast(\"s\".\"scalars\" ->> ? as boolean) = ?), false))",
        "bActive",
        true);
  }
}
