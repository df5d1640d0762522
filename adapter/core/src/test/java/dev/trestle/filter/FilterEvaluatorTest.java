package dev.trestle.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FilterEvaluatorTest {

  private static boolean matches(String filter, TableEntity entity) {
    return FilterEvaluator.matches(FilterParser.parse(filter), entity);
  }

  private static TableEntity with(String name, PropertyValue value) {
    return TableEntity.builder("p", "r").put(name, value).build();
  }

  @Nested
  class MissingProperties {
    private final TableEntity entity = TableEntity.builder("p", "r").put("Other", 1).build();

    @ParameterizedTest
    @ValueSource(strings = {"eq", "ne", "gt", "ge", "lt", "le"})
    void comparisonOnAMissingPropertyIsFalseForEveryOperator(String op) {
      assertThat(matches("X " + op + " 1", entity)).isFalse();
      assertThat(matches("X " + op + " 'a'", entity)).isFalse();
    }

    @Test
    void notIsPlainNegationSoItIsTrueOverAMissingProperty() {
      // Decision (protocol reference 8.2 rule 2): comparisons are two-valued, not is plain
      // negation.
      assertThat(matches("not (X eq 1)", entity)).isTrue();
      assertThat(matches("not (X ne 1)", entity)).isTrue();
      assertThat(matches("not X eq 1 and Other eq 1", entity)).isTrue();
      assertThat(matches("not not (X eq 1)", entity)).isFalse();
    }

    @Test
    void missingFeedsAndOrAsFalse() {
      assertThat(matches("X eq 1 or Other eq 1", entity)).isTrue();
      assertThat(matches("X ne 1 and Other eq 1", entity)).isFalse();
    }

    @Test
    void timestampOfAnEntityNotYetStoredIsMissing() {
      assertThat(matches("Timestamp ge datetime'0001-01-01T00:00:00Z'", entity)).isFalse();
    }

    @Test
    void tableNameIsAnOrdinaryPropertyOfAnEntity() {
      assertThat(matches("TableName eq 'x'", entity)).isFalse();
      assertThat(matches("TableName eq 'x'", with("TableName", PropertyValue.of("x")))).isTrue();
    }
  }

  @Nested
  class TypeMismatch {
    @ParameterizedTest
    @ValueSource(strings = {"eq", "ne", "gt", "ge", "lt", "le"})
    void anInt32LiteralAlsoComparesWithInt64AndDoubleOtherNumericLiteralsOnlyWithTheirOwnType(
        String op) {
      // Azure answers "N gt 4" for an Int64 or Double N, and "N eq 5L" or "N eq 5.0" only for its
      // own type
      TableEntity int64 = with("N", PropertyValue.of(5L));
      TableEntity dbl = with("N", PropertyValue.of(5.0));
      TableEntity int32 = with("N", PropertyValue.of(5));
      boolean equalHolds = op.equals("eq") || op.equals("ge") || op.equals("le");
      for (TableEntity entity : List.of(int64, dbl, int32)) {
        assertThat(matches("N " + op + " 5", entity))
            .as("Int32 literal vs %s", entity)
            .isEqualTo(equalHolds);
      }
      for (TableEntity entity : List.of(int32, dbl)) {
        assertThat(matches("N " + op + " 5L", entity)).isFalse();
      }
      for (TableEntity entity : List.of(int32, int64)) {
        assertThat(matches("N " + op + " 5.0", entity)).isFalse();
      }
    }

    @Test
    void anInt32LiteralComparesNumericallyBeyondTheInt32Range() {
      assertThat(matches("N gt 2147483647", with("N", PropertyValue.of(Long.MAX_VALUE)))).isTrue();
      assertThat(matches("N lt -2147483648", with("N", PropertyValue.of(Long.MIN_VALUE)))).isTrue();
      assertThat(matches("N gt 4", with("N", PropertyValue.of(4.5)))).isTrue();
      assertThat(matches("N lt 5", with("N", PropertyValue.of(4.5)))).isTrue();
      assertThat(matches("N eq 4", with("N", PropertyValue.of(Double.NaN)))).isFalse();
      assertThat(matches("N ne 4", with("N", PropertyValue.of(Double.NaN)))).isTrue();
    }

    @Test
    void stringThatLooksLikeANumberDoesNotMatchANumericLiteral() {
      TableEntity entity = with("Age", PropertyValue.of("30"));
      assertThat(matches("Age eq 30", entity)).isFalse();
      assertThat(matches("Age gt 29", entity)).isFalse();
      assertThat(matches("Age ne 30", entity)).isFalse();
      assertThat(matches("Age eq '30'", entity)).isTrue();
    }

    @Test
    void everyOtherTypePairIsFalse() {
      List<PropertyValue> samples =
          List.of(
              PropertyValue.of("true"),
              PropertyValue.of(1),
              PropertyValue.of(1L),
              PropertyValue.of(1.0),
              PropertyValue.of(true),
              PropertyValue.of(Instant.EPOCH),
              PropertyValue.of(new UUID(0, 1)),
              PropertyValue.of(new byte[] {1}));
      List<String> literals =
          List.of(
              "'true'",
              "1",
              "1L",
              "1.0",
              "true",
              "datetime'1970-01-01T00:00:00Z'",
              "guid'00000000-0000-0000-0000-000000000001'",
              "X'01'");
      for (int stored = 0; stored < samples.size(); stored++) {
        for (int literal = 0; literal < literals.size(); literal++) {
          // an Int32 literal (index 1) also equals the Int64 and Double samples (indexes 2 and 3)
          boolean expected = stored == literal || literal == 1 && (stored == 2 || stored == 3);
          TableEntity entity = with("V", samples.get(stored));
          assertThat(matches("V eq " + literals.get(literal), entity))
              .as("%s eq %s", samples.get(stored), literals.get(literal))
              .isEqualTo(expected);
          assertThat(matches("V ne " + literals.get(literal), entity)).isFalse();
        }
      }
    }

    @Test
    void keysAreStringsAndTimestampIsADateTime() {
      TableEntity entity =
          TableEntity.builder("5", "true").timestamp(Instant.parse("2020-01-01T00:00:00Z")).build();
      assertThat(matches("PartitionKey eq 5", entity)).isFalse();
      assertThat(matches("PartitionKey ne 5", entity)).isFalse();
      assertThat(matches("RowKey eq true", entity)).isFalse();
      assertThat(matches("PartitionKey eq '5' and RowKey eq 'true'", entity)).isTrue();
      assertThat(matches("Timestamp eq '2020-01-01T00:00:00Z'", entity)).isFalse();
      assertThat(matches("Timestamp eq datetime'2020-01-01T00:00:00Z'", entity)).isTrue();
    }
  }

  @Nested
  class Ordering {
    @ParameterizedTest
    @CsvSource({
      "'B',lt,'a'",
      "'a',lt,'b'",
      "'a',lt,'\u00e9'",
      "'Z',lt,'a'",
      "'',lt,'a'",
      "'a',lt,'aa'",
      "'\ud83d\ude00',lt,'\ue000'",
      "'\ud800\udc00',lt,'\uffff'"
    })
    void stringsCompareByUtf16CodeUnit(String smaller, String op, String larger) {
      TableEntity entity = with("S", PropertyValue.of(smaller));
      assertThat(matches("S lt '" + larger + "'", entity)).isTrue();
      assertThat(matches("S ge '" + larger + "'", entity)).isFalse();
      assertThat(matches("S ne '" + larger + "'", entity)).isTrue();
    }

    @Test
    void stringsAreCaseSensitive() {
      assertThat(matches("Name eq 'alice'", with("Name", PropertyValue.of("Alice")))).isFalse();
    }

    @Test
    void keysCompareOrdinally() {
      TableEntity entity = TableEntity.builder("B", "\ud83d\ude00").build();
      assertThat(matches("PartitionKey lt 'a'", entity)).isTrue();
      assertThat(matches("RowKey lt '\ue000'", entity)).isTrue();
    }

    @Test
    void integersAtTheirLimits() {
      assertThat(matches("I lt 2147483647", with("I", PropertyValue.of(Integer.MIN_VALUE))))
          .isTrue();
      assertThat(matches("I eq -2147483648", with("I", PropertyValue.of(Integer.MIN_VALUE))))
          .isTrue();
      assertThat(matches("L gt 9223372036854775806L", with("L", PropertyValue.of(Long.MAX_VALUE))))
          .isTrue();
      // one past 2^53 must not collapse onto its double neighbour
      assertThat(
              matches(
                  "L eq 9007199254740992L", with("L", PropertyValue.of(9_007_199_254_740_993L))))
          .isFalse();
      assertThat(
              matches(
                  "L gt 9007199254740992L", with("L", PropertyValue.of(9_007_199_254_740_993L))))
          .isTrue();
    }

    @Test
    void doublesFollowIeee() {
      TableEntity nan = with("D", PropertyValue.of(Double.NaN));
      assertThat(matches("D eq NaN", nan)).isFalse();
      assertThat(matches("D ne NaN", nan)).isTrue();
      assertThat(matches("D ne 1.0", nan)).isTrue();
      for (String op : List.of("gt", "ge", "lt", "le")) {
        assertThat(matches("D " + op + " 1.0", nan)).isFalse();
        assertThat(matches("D " + op + " INF", nan)).isFalse();
      }
      TableEntity negativeZero = with("D", PropertyValue.of(-0.0));
      assertThat(matches("D eq 0.0", negativeZero)).isTrue();
      assertThat(matches("D lt 0.0", negativeZero)).isFalse();
      TableEntity infinity = with("D", PropertyValue.of(Double.POSITIVE_INFINITY));
      assertThat(matches("D gt 1.7976931348623157E308", infinity)).isTrue();
      assertThat(matches("D eq INF", infinity)).isTrue();
      assertThat(matches("D gt -INF", with("D", PropertyValue.of(-Double.MAX_VALUE)))).isTrue();
      assertThat(matches("D gt 0.0", with("D", PropertyValue.of(Double.MIN_VALUE)))).isTrue();
    }

    @Test
    void dateTimesCompareAtOneHundredNanoseconds() {
      TableEntity entity =
          with("T", PropertyValue.of(Instant.parse("2019-12-31T23:59:59.9999999Z")));
      assertThat(matches("T eq datetime'2019-12-31T23:59:59.9999999Z'", entity)).isTrue();
      assertThat(matches("T lt datetime'2020-01-01T00:00:00Z'", entity)).isTrue();
      assertThat(matches("T gt datetime'2019-12-31T23:59:59.9999998Z'", entity)).isTrue();
      assertThat(matches("T eq datetime'2019-12-31T23:59:59.999999Z'", entity)).isFalse();
      // digits below 100 ns are truncated on both sides
      assertThat(matches("T eq datetime'2019-12-31T23:59:59.99999999Z'", entity)).isTrue();
    }

    @Test
    void guidsCompareByTheirStringForm() {
      // Java's UUID.compareTo is signed and would put 8... before 7...; the string form does not.
      TableEntity high =
          with("G", PropertyValue.of(UUID.fromString("80000000-0000-0000-0000-000000000000")));
      assertThat(matches("G gt guid'7fffffff-ffff-ffff-ffff-ffffffffffff'", high)).isTrue();
      TableEntity lowTail =
          with("G", PropertyValue.of(UUID.fromString("00000000-0000-0000-8000-000000000000")));
      assertThat(matches("G gt guid'00000000-0000-0000-7fff-ffffffffffff'", lowTail)).isTrue();
      assertThat(matches("G eq guid'00000000-0000-0000-8000-000000000000'", lowTail)).isTrue();
      assertThat(matches("G eq guid'00000000-0000-0000-8000-000000000000'", high)).isFalse();
    }

    @Test
    void binariesCompareByUnsignedBytesWithPrefixFirst() {
      TableEntity ff = with("B", PropertyValue.of(new byte[] {(byte) 0xff}));
      assertThat(matches("B gt X'7f'", ff)).isTrue();
      assertThat(matches("B gt X'fe00'", ff)).isTrue();
      assertThat(matches("B lt X'ff00'", ff)).isTrue();
      assertThat(matches("B gt X''", ff)).isTrue();
      assertThat(matches("B eq binary'FF'", ff)).isTrue();
      assertThat(matches("B eq X''", with("B", PropertyValue.of(new byte[0])))).isTrue();
    }

    @Test
    void falseSortsBeforeTrue() {
      TableEntity f = with("F", PropertyValue.of(false));
      assertThat(matches("F lt true", f)).isTrue();
      assertThat(matches("F ge true", f)).isFalse();
      assertThat(matches("F eq false", f)).isTrue();
      assertThat(matches("F", f)).isFalse();
      assertThat(matches("F", with("F", PropertyValue.of(true)))).isTrue();
    }
  }

  @Test
  void literalOnTheLeftMeansTheSame() {
    TableEntity entity = with("Age", PropertyValue.of(30));
    assertThat(matches("29 lt Age", entity)).isTrue();
    assertThat(matches("30 lt Age", entity)).isFalse();
    assertThat(matches("30 le Age", entity)).isTrue();
    assertThat(matches("31 gt Age", entity)).isTrue();
  }

  @Test
  void precedenceDecidesTheResult() {
    TableEntity entity = TableEntity.builder("p", "r").put("A", 1).put("B", 0).put("C", 0).build();
    assertThat(matches("A eq 1 or B eq 1 and C eq 1", entity)).isTrue();
    assertThat(matches("(A eq 1 or B eq 1) and C eq 1", entity)).isFalse();
    assertThat(matches("not A eq 1 or B eq 0", entity)).isTrue();
    assertThat(matches("not (A eq 1 or B eq 0)", entity)).isFalse();
  }
}
