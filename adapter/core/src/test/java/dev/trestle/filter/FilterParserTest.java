package dev.trestle.filter;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.filter.FilterExpression.Not;
import dev.trestle.filter.FilterExpression.Or;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FilterParserTest {

  private static Comparison cmp(String property, ComparisonOperator op, PropertyValue literal) {
    return new Comparison(property, op, literal);
  }

  private static PropertyValue literalOf(String literalText) {
    return ((Comparison) FilterParser.parse("P eq " + literalText)).literal();
  }

  private static TableException syntaxError(String filter) {
    return assertFails(TableErrorCode.INVALID_INPUT, () -> FilterParser.parse(filter));
  }

  @Nested
  class Literals {
    @Test
    void stringWithDoubledQuoteEscape() {
      assertThat(literalOf("'O''Brien'")).isEqualTo(PropertyValue.of("O'Brien"));
      assertThat(literalOf("''")).isEqualTo(PropertyValue.of(""));
      assertThat(literalOf("''''")).isEqualTo(PropertyValue.of("'"));
      assertThat(literalOf("'a b  and eq ( )'")).isEqualTo(PropertyValue.of("a b  and eq ( )"));
      assertThat(literalOf("'\u00e9\ud83d\ude00'"))
          .isEqualTo(PropertyValue.of("\u00e9\ud83d\ude00"));
    }

    @Test
    void int32IncludingItsLimits() {
      assertThat(literalOf("42")).isEqualTo(PropertyValue.of(42));
      assertThat(literalOf("-7")).isEqualTo(PropertyValue.of(-7));
      assertThat(literalOf("2147483647")).isEqualTo(PropertyValue.of(Integer.MAX_VALUE));
      assertThat(literalOf("-2147483648")).isEqualTo(PropertyValue.of(Integer.MIN_VALUE));
    }

    @Test
    void int32OutOfRangeIsAnErrorNotAnInt64() {
      assertThat(syntaxError("Big eq 2147483648").getMessage())
          .contains("position 7")
          .contains("'Edm.Int32' literal '2147483648'");
      syntaxError("Big eq -2147483649");
      syntaxError("Big eq 5454161346626");
    }

    @Test
    void int64WithEitherSuffixCase() {
      assertThat(literalOf("5000000000L")).isEqualTo(PropertyValue.of(5_000_000_000L));
      assertThat(literalOf("1l")).isEqualTo(PropertyValue.of(1L));
      assertThat(literalOf("9223372036854775807L")).isEqualTo(PropertyValue.of(Long.MAX_VALUE));
      assertThat(literalOf("-9223372036854775808L")).isEqualTo(PropertyValue.of(Long.MIN_VALUE));
      syntaxError("Big eq 9223372036854775808L");
    }

    @ParameterizedTest
    @CsvSource({
      "1.5,1.5",
      "-0.25,-0.25",
      "1e10,1e10",
      "1E+20,1e20",
      "2.5e-3,0.0025",
      "2.0d,2.0",
      "5D,5.0",
      "1.0E10,1e10",
      "4.9E-324,4.9E-324"
    })
    void doubles(String text, double expected) {
      assertThat(literalOf(text)).isEqualTo(PropertyValue.of(expected));
    }

    @Test
    void doubleSpecialValues() {
      assertThat(literalOf("NaN")).isEqualTo(PropertyValue.of(Double.NaN));
      assertThat(literalOf("INF")).isEqualTo(PropertyValue.of(Double.POSITIVE_INFINITY));
      assertThat(literalOf("-INF")).isEqualTo(PropertyValue.of(Double.NEGATIVE_INFINITY));
      assertThat(literalOf("-0.0")).isEqualTo(PropertyValue.of(-0.0));
    }

    @ParameterizedTest
    @ValueSource(
        doubles = {
          -0.0,
          0.0,
          Double.MIN_VALUE,
          -Double.MAX_VALUE,
          0.1,
          1e-300,
          9_007_199_254_740_993.0,
          123456789.125
        })
    void javaDoubleTextRoundTripsBitForBit(double value) {
      // DoubleValue equality compares bits, so -0.0 must stay -0.0
      assertThat(literalOf(Double.toString(value))).isEqualTo(PropertyValue.of(value));
    }

    @Test
    void doubleOverflowIsAnError() {
      syntaxError("D eq 1e400");
    }

    @Test
    void booleans() {
      assertThat(literalOf("true")).isEqualTo(PropertyValue.of(true));
      assertThat(literalOf("false")).isEqualTo(PropertyValue.of(false));
    }

    @Test
    void booleansInAnyCase() {
      assertThat(literalOf("True")).isEqualTo(PropertyValue.of(true));
      assertThat(literalOf("FALSE")).isEqualTo(PropertyValue.of(false));
      assertThat(literalOf("faLsE")).isEqualTo(PropertyValue.of(false));
    }

    @Test
    void dateTimes() {
      assertThat(literalOf("datetime'2008-07-10T00:00:00Z'"))
          .isEqualTo(PropertyValue.of(Instant.parse("2008-07-10T00:00:00Z")));
      assertThat(literalOf("datetime'2019-12-31T23:59:59.9999999Z'"))
          .isEqualTo(PropertyValue.of(Instant.parse("2019-12-31T23:59:59.9999999Z")));
      // no seconds, no zone (UTC), an offset, and digits below 100 ns truncated
      assertThat(literalOf("datetime'2020-01-02T03:04'"))
          .isEqualTo(PropertyValue.of(Instant.parse("2020-01-02T03:04:00Z")));
      assertThat(literalOf("datetime'2020-01-02T03:04:05+02:00'"))
          .isEqualTo(PropertyValue.of(Instant.parse("2020-01-02T01:04:05Z")));
      assertThat(literalOf("datetime'2020-01-02T03:04:05.123456789Z'"))
          .isEqualTo(PropertyValue.of(Instant.parse("2020-01-02T03:04:05.1234567Z")));
      assertThat(literalOf("datetime'0001-01-01T00:00:00Z'"))
          .isEqualTo(PropertyValue.of(Instant.parse("0001-01-01T00:00:00Z")));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "datetime'2020-13-01T00:00:00Z'",
          "datetime'2020-02-30T00:00:00Z'",
          "datetime'yesterday'",
          "datetime'2020-01-01'",
          "datetime'0000-01-01T00:00:00Z'",
          "datetime'2020-01-01T00:00:00+25:00'"
        })
    void invalidDateTimes(String literal) {
      assertThat(syntaxError("T eq " + literal).getMessage()).contains("position 5");
    }

    @Test
    void guids() {
      UUID id = UUID.fromString("11111111-2222-3333-4444-555555555555");
      assertThat(literalOf("guid'11111111-2222-3333-4444-555555555555'"))
          .isEqualTo(PropertyValue.of(id));
      assertThat(literalOf("guid'AAAAAAAA-bbbb-CCCC-dddd-EEEEEEEEEEEE'"))
          .isEqualTo(PropertyValue.of(UUID.fromString("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")));
      syntaxError("G eq guid'1-2-3-4-5'");
      syntaxError("G eq guid'11111111222233334444555555555555'");
      syntaxError("G eq guid'1111111g-2222-3333-4444-555555555555'");
    }

    @Test
    void binariesInBothSpellings() {
      assertThat(literalOf("X'0aff'")).isEqualTo(PropertyValue.of(new byte[] {0x0a, (byte) 0xff}));
      assertThat(literalOf("binary'0AFF'"))
          .isEqualTo(PropertyValue.of(new byte[] {0x0a, (byte) 0xff}));
      assertThat(literalOf("x''")).isEqualTo(PropertyValue.of(new byte[0]));
      syntaxError("B eq X'abc'");
      syntaxError("B eq X'zz'");
    }
  }

  @Nested
  class Structure {
    @Test
    void simpleComparisonsWithEveryOperator() {
      assertThat(FilterParser.parse("Age eq 30"))
          .isEqualTo(cmp("Age", ComparisonOperator.EQ, PropertyValue.of(30)));
      assertThat(FilterParser.parse("Age ne 30"))
          .isEqualTo(cmp("Age", ComparisonOperator.NE, PropertyValue.of(30)));
      assertThat(FilterParser.parse("Age gt 30"))
          .isEqualTo(cmp("Age", ComparisonOperator.GT, PropertyValue.of(30)));
      assertThat(FilterParser.parse("Age ge 30"))
          .isEqualTo(cmp("Age", ComparisonOperator.GE, PropertyValue.of(30)));
      assertThat(FilterParser.parse("Age lt 30"))
          .isEqualTo(cmp("Age", ComparisonOperator.LT, PropertyValue.of(30)));
      assertThat(FilterParser.parse("Age le 30"))
          .isEqualTo(cmp("Age", ComparisonOperator.LE, PropertyValue.of(30)));
    }

    @Test
    void systemPropertiesAndTableNameAreProperties() {
      assertThat(FilterParser.parse("PartitionKey eq 'p'"))
          .isEqualTo(cmp("PartitionKey", ComparisonOperator.EQ, PropertyValue.of("p")));
      assertThat(FilterParser.parse("RowKey lt 'r'"))
          .isEqualTo(cmp("RowKey", ComparisonOperator.LT, PropertyValue.of("r")));
      assertThat(FilterParser.parse("Timestamp ge datetime'2020-01-01T00:00:00Z'"))
          .isEqualTo(
              cmp(
                  "Timestamp",
                  ComparisonOperator.GE,
                  PropertyValue.of(Instant.parse("2020-01-01T00:00:00Z"))));
      assertThat(FilterParser.parse("TableName eq 'mytable'"))
          .isEqualTo(cmp("TableName", ComparisonOperator.EQ, PropertyValue.of("mytable")));
    }

    @Test
    void propertyNamesWithUnderscoresDigitsAndUnicode() {
      assertThat(FilterParser.parse("_a1 eq 1"))
          .isEqualTo(cmp("_a1", ComparisonOperator.EQ, PropertyValue.of(1)));
      assertThat(FilterParser.parse("Größe eq 1"))
          .isEqualTo(cmp("Größe", ComparisonOperator.EQ, PropertyValue.of(1)));
    }

    @ParameterizedTest
    @CsvSource({"eq,EQ", "ne,NE", "gt,LT", "ge,LE", "lt,GT", "le,GE"})
    void literalOnTheLeftIsFlipped(String op, ComparisonOperator flipped) {
      assertThat(FilterParser.parse("5 " + op + " Age"))
          .isEqualTo(cmp("Age", flipped, PropertyValue.of(5)));
    }

    @Test
    void bareTrueAndFalseAreConstantsAsTheDotNetPredicateBuilderWritesThem() {
      Comparison rk = cmp("RowKey", ComparisonOperator.EQ, PropertyValue.of("1"));
      Comparison pk = cmp("PartitionKey", ComparisonOperator.EQ, PropertyValue.of("p"));
      assertThat(FilterParser.parse("(true and RowKey eq '1') and (false or PartitionKey eq 'p')"))
          .isEqualTo(
              new And(
                  new And(new FilterExpression.Constant(true), rk),
                  new Or(new FilterExpression.Constant(false), pk)));
      assertThat(FilterParser.parse("true")).isEqualTo(new FilterExpression.Constant(true));
      assertThat(FilterParser.parse("not false"))
          .isEqualTo(new Not(new FilterExpression.Constant(false)));
      assertThat(FilterParser.parse("true eq B"))
          .isEqualTo(cmp("B", ComparisonOperator.EQ, PropertyValue.of(true)));
      syntaxError("5 and A eq 1");
      syntaxError("'x'");
    }

    @Test
    void bareBooleanPropertyMeansEqTrue() {
      assertThat(FilterParser.parse("IsActive"))
          .isEqualTo(cmp("IsActive", ComparisonOperator.EQ, PropertyValue.of(true)));
      assertThat(FilterParser.parse("not IsActive and A eq 1"))
          .isEqualTo(
              new And(
                  new Not(cmp("IsActive", ComparisonOperator.EQ, PropertyValue.of(true))),
                  cmp("A", ComparisonOperator.EQ, PropertyValue.of(1))));
    }

    @Test
    void andBindsTighterThanOr() {
      Comparison a = cmp("A", ComparisonOperator.EQ, PropertyValue.of(1));
      Comparison b = cmp("B", ComparisonOperator.EQ, PropertyValue.of(2));
      Comparison c = cmp("C", ComparisonOperator.EQ, PropertyValue.of(3));
      assertThat(FilterParser.parse("A eq 1 or B eq 2 and C eq 3"))
          .isEqualTo(new Or(a, new And(b, c)));
      assertThat(FilterParser.parse("A eq 1 and B eq 2 or C eq 3"))
          .isEqualTo(new Or(new And(a, b), c));
      assertThat(FilterParser.parse("(A eq 1 or B eq 2) and C eq 3"))
          .isEqualTo(new And(new Or(a, b), c));
    }

    @Test
    void andAndOrAssociateToTheLeft() {
      Comparison a = cmp("A", ComparisonOperator.EQ, PropertyValue.of(1));
      Comparison b = cmp("B", ComparisonOperator.EQ, PropertyValue.of(2));
      Comparison c = cmp("C", ComparisonOperator.EQ, PropertyValue.of(3));
      assertThat(FilterParser.parse("A eq 1 and B eq 2 and C eq 3"))
          .isEqualTo(new And(new And(a, b), c));
      assertThat(FilterParser.parse("A eq 1 or B eq 2 or C eq 3"))
          .isEqualTo(new Or(new Or(a, b), c));
    }

    @Test
    void notBindsTighterThanAndAndOr() {
      Comparison a = cmp("A", ComparisonOperator.EQ, PropertyValue.of(1));
      Comparison b = cmp("B", ComparisonOperator.EQ, PropertyValue.of(2));
      assertThat(FilterParser.parse("not A eq 1 and B eq 2")).isEqualTo(new And(new Not(a), b));
      assertThat(FilterParser.parse("not A eq 1 or B eq 2")).isEqualTo(new Or(new Not(a), b));
      assertThat(FilterParser.parse("not (A eq 1 or B eq 2)")).isEqualTo(new Not(new Or(a, b)));
      assertThat(FilterParser.parse("not not A eq 1")).isEqualTo(new Not(new Not(a)));
    }

    @Test
    void whitespaceIsFlexibleAndParenthesesNeedNone() {
      Comparison a = cmp("A", ComparisonOperator.EQ, PropertyValue.of(1));
      Comparison b = cmp("B", ComparisonOperator.EQ, PropertyValue.of("x"));
      assertThat(FilterParser.parse("  (A   eq\t1)and(B eq 'x')  ")).isEqualTo(new And(a, b));
      assertThat(FilterParser.parse("not(A eq 1)")).isEqualTo(new Not(a));
      assertThat(FilterParser.parse("((((A eq 1))))")).isEqualTo(a);
    }
  }

  @Nested
  class Errors {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "''|0",
          "'   '|3",
          "Age eq|6",
          "Age eq 1 and|12",
          "Age eq 1 Name eq 'x'|9",
          "Age eq 1)|8",
          "(Age eq 1|9",
          "Age eq 'abc|7",
          "Age == 1|4",
          "Age eq 1 AND B eq 2|9",
          "Age EQ 1|4",
          "Age eq 1 & B eq 2|9",
          "Age eq Other|7",
          "1 eq 2|0",
          "'a' eq 'b'|0",
          "Age eq 5and B eq 1|8",
          "Age eq +5|7",
          "Age eq 1.|8",
          "startswith(Name, 'a')|10",
          "and eq 1|0",
          "Age eq and|7",
          "Age eq 1.5L|10",
          "A eq 1 or not|13",
          "()|1",
        })
    void syntaxErrorsNameThePosition(String filter, int position) {
      TableException e = syntaxError(filter);
      assertThat(e.getMessage()).startsWith("Syntax error at position " + position + " ");
      assertThat(e.status()).isEqualTo(400);
    }

    @Test
    void emptyFilterIsASyntaxError() {
      assertThat(syntaxError("").getMessage()).contains("position 0");
    }

    @Test
    void fifteenComparisonsAreAllowedSixteenAreNot() {
      String fifteen = String.join(" or ", java.util.Collections.nCopies(15, "A eq 1"));
      FilterExpression parsed = FilterParser.parse(fifteen);
      assertThat(parsed).isInstanceOf(Or.class);
      assertThatThrownBy(() -> FilterParser.parse(fifteen + " or A eq 1"))
          .isInstanceOfSatisfying(
              TableException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(TableErrorCode.INVALID_INPUT);
                assertThat(e.getMessage()).contains("15");
              });
    }

    @Test
    void bareBooleanPropertiesCountAsComparisons() {
      String fifteen = String.join(" and ", java.util.Collections.nCopies(15, "B"));
      FilterParser.parse(fifteen);
      syntaxErrorOrLimit(fifteen + " and B");
    }

    private void syntaxErrorOrLimit(String filter) {
      assertFails(TableErrorCode.INVALID_INPUT, () -> FilterParser.parse(filter));
    }

    @Test
    void deepNestingIsRejectedWithoutExhaustingTheStack() {
      String deep = "(".repeat(100_000) + "A eq 1" + ")".repeat(100_000);
      assertThat(syntaxError(deep).getMessage()).contains("nested");
      String nots = "not ".repeat(100_000) + "A eq 1";
      assertThat(syntaxError(nots).getMessage()).contains("nested");
    }

    @Test
    void longFiltersAreShortenedInTheMessage() {
      String filter = "Name eq '" + "x".repeat(5000);
      assertThat(syntaxError(filter).getMessage()).hasSizeLessThan(400);
    }
  }
}
