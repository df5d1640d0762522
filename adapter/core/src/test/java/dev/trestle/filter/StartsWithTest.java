package dev.trestle.filter;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import org.junit.jupiter.api.Test;

class StartsWithTest {

  private static Comparison ge(String property, String value) {
    return new Comparison(property, ComparisonOperator.GE, PropertyValue.of(value));
  }

  private static Comparison lt(String property, String value) {
    return new Comparison(property, ComparisonOperator.LT, PropertyValue.of(value));
  }

  @Test
  void readsAsTheRangeOfStringsWithThePrefix() {
    assertThat(FilterParser.parseExtended("startswith(RowKey, 'ab')"))
        .isEqualTo(new And(ge("RowKey", "ab"), lt("RowKey", "ac")));
    assertThat(FilterParser.parseExtended("startswith(Name,'a\uFFFF\uFFFF')"))
        .isEqualTo(new And(ge("Name", "a\uFFFF\uFFFF"), lt("Name", "b")));
    assertThat(FilterParser.parseExtended("startswith(Name,'\uFFFF')"))
        .isEqualTo(ge("Name", "\uFFFF"));
    assertThat(FilterParser.parseExtended("startswith(Name,'')")).isEqualTo(ge("Name", ""));
  }

  @Test
  void combinesWithTheStandardLanguage() {
    FilterExpression filter =
        FilterParser.parseExtended(
            "PartitionKey eq 'p' and not startswith(RowKey,'x') or startswith eq 'y'");
    TableEntity matching = TableEntity.builder("p", "abc").build();
    TableEntity prefixed = TableEntity.builder("p", "xyz").build();
    TableEntity named = TableEntity.builder("q", "xyz").put("startswith", "y").build();

    assertThat(FilterEvaluator.matches(filter, matching)).isTrue();
    assertThat(FilterEvaluator.matches(filter, prefixed)).isFalse();
    assertThat(FilterEvaluator.matches(filter, named)).isTrue();
  }

  @Test
  void isCaseSensitiveAndOrdinal() {
    FilterExpression filter = FilterParser.parseExtended("startswith(Name,'Ab')");

    assertThat(FilterEvaluator.matches(filter, entity("Abc"))).isTrue();
    assertThat(FilterEvaluator.matches(filter, entity("abc"))).isFalse();
    assertThat(FilterEvaluator.matches(filter, entity("Ab"))).isTrue();
    assertThat(FilterEvaluator.matches(filter, entity("A"))).isFalse();
    assertThat(
            FilterEvaluator.matches(filter, TableEntity.builder("p", "r").put("Name", 5).build()))
        .as("only strings have a prefix")
        .isFalse();
  }

  private static TableEntity entity(String name) {
    return TableEntity.builder("p", "r").put("Name", name).build();
  }

  @Test
  void theStandardLanguageHasNoFunctions() {
    assertFails(TableErrorCode.INVALID_INPUT, () -> FilterParser.parse("startswith(RowKey,'a')"));
  }

  @Test
  void malformedCallsAreSyntaxErrors() {
    for (String bad :
        new String[] {
          "startswith(RowKey)",
          "startswith('a', RowKey)",
          "startswith(RowKey, 5)",
          "startswith(RowKey, 'a'",
          "startswith(and, 'a')",
          "RowKey eq 'a', 'b'"
        }) {
      assertFails(TableErrorCode.INVALID_INPUT, () -> FilterParser.parseExtended(bad));
    }
  }
}
