package dev.trestle.filter;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.filter.FilterExpression.TextCase;
import dev.trestle.filter.FilterExpression.TextComparison;
import dev.trestle.filter.FilterExpression.TextOperator;
import org.junit.jupiter.api.Test;

class TextFunctionsTest {

  private static boolean matches(String filter, Object name) {
    TableEntity.Builder entity = TableEntity.builder("p", "r");
    if (name instanceof String s) {
      entity.put("Name", s);
    } else if (name instanceof Integer i) {
      entity.put("Name", i);
    }
    return FilterEvaluator.matches(FilterParser.parseExtended(filter), entity.build());
  }

  @Test
  void parsesEachFunctionIntoATextComparison() {
    assertThat(FilterParser.parseExtended("endswith(Name,'x')"))
        .isEqualTo(new TextComparison("Name", TextCase.AS_IS, TextOperator.ENDS_WITH, "x"));
    assertThat(FilterParser.parseExtended("contains(Name, 'x')"))
        .isEqualTo(new TextComparison("Name", TextCase.AS_IS, TextOperator.CONTAINS, "x"));
    assertThat(FilterParser.parseExtended("substringof('x', Name)"))
        .isEqualTo(new TextComparison("Name", TextCase.AS_IS, TextOperator.CONTAINS, "x"));
    assertThat(FilterParser.parseExtended("tolower(Name) eq 'x'"))
        .isEqualTo(new TextComparison("Name", TextCase.LOWER, TextOperator.EQ, "x"));
    assertThat(FilterParser.parseExtended("'x' lt toupper(Name)"))
        .as("a literal on the left is mirrored")
        .isEqualTo(new TextComparison("Name", TextCase.UPPER, TextOperator.GT, "x"));
    assertThat(FilterParser.parseExtended("startswith(tolower(RowKey),'ab')"))
        .isEqualTo(new TextComparison("RowKey", TextCase.LOWER, TextOperator.STARTS_WITH, "ab"));
    assertThat(FilterParser.parseExtended("contains(toupper(Name),'AB')"))
        .isEqualTo(new TextComparison("Name", TextCase.UPPER, TextOperator.CONTAINS, "AB"));
  }

  @Test
  void matchesUnitsLiterallyWithoutPatternCharacters() {
    assertThat(matches("contains(Name,'%')", "100%")).isTrue();
    assertThat(matches("contains(Name,'%')", "100")).isFalse();
    assertThat(matches("contains(Name,'a_c')", "abc")).isFalse();
    assertThat(matches("endswith(Name,'\\')", "x\\")).isTrue();
    assertThat(matches("endswith(Name,'''')", "it's'")).isTrue();
    assertThat(matches("contains(Name,'')", "")).isTrue();
    assertThat(matches("endswith(Name,'\uDE00')", "\uD83D\uDE00")).as("by UTF-16 unit").isTrue();
  }

  @Test
  void isFalseForEveryOperatorOnANonStringOrMissingProperty() {
    for (String filter :
        new String[] {
          "contains(Name,'1')",
          "endswith(Name,'')",
          "tolower(Name) ne 'x'",
          "tolower(Name) eq '1'",
          "startswith(tolower(Name),'')"
        }) {
      assertThat(matches(filter, 1)).as(filter).isFalse();
      assertThat(matches(filter, null)).as(filter).isFalse();
    }
    assertThat(matches("not contains(Name,'1')", 1)).isTrue();
  }

  @Test
  void caseMappingIsPerUnitAndLocaleFree() {
    assertThat(matches("tolower(Name) eq 'straße'", "STRAßE")).isTrue();
    assertThat(matches("toupper(Name) eq 'STRASSE'", "straße"))
        .as("simple mapping: ß stays one unit")
        .isFalse();
    assertThat(matches("tolower(Name) eq 'i'", "I")).as("not Turkish").isTrue();
    assertThat(matches("tolower(Name) eq 'i'", "\u0130")).as("İ lowers to i").isTrue();
    assertThat(matches("tolower(Name) eq 'ＡＢ'", "ＡＢ")).isFalse();
    assertThat(matches("tolower(Name) eq 'ａｂ'", "ＡＢ")).as("fullwidth letters").isTrue();
    assertThat(matches("tolower(Name) eq '\uD801\uDC00'", "\uD801\uDC00"))
        .as("supplementary letters (Deseret) are not mapped")
        .isTrue();
    assertThat(matches("tolower(Name) eq 'ABC'", "ABC")).as("the literal is not mapped").isFalse();
    assertThat(matches("contains(tolower(Name),'bc')", "ABCD")).isTrue();
    assertThat(matches("endswith(toupper(Name),'CD')", "abcd")).isTrue();
  }

  @Test
  void theStandardLanguageHasNoFunctions() {
    for (String filter :
        new String[] {
          "endswith(RowKey,'a')",
          "contains(RowKey,'a')",
          "substringof('a',RowKey)",
          "tolower(RowKey) eq 'a'"
        }) {
      assertFails(TableErrorCode.INVALID_INPUT, () -> FilterParser.parse(filter));
    }
  }

  @Test
  void malformedCallsAreSyntaxErrors() {
    for (String bad :
        new String[] {
          "contains(Name)",
          "contains('a', Name)",
          "endswith(Name, 5)",
          "substringof(Name, 'a')",
          "tolower(Name)",
          "tolower(Name) eq 5",
          "tolower('a') eq 'a'",
          "5 eq tolower(Name)",
          "tolower(tolower(Name)) eq 'a'",
          "length(Name) eq 1",
          "contains(and,'a')"
        }) {
      assertFails(TableErrorCode.INVALID_INPUT, () -> FilterParser.parseExtended(bad));
    }
  }
}
