package dev.trestle.store.internal.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterParser;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ExactEqualitiesTest {

  private static Map<String, List<PropertyValue>> of(String filter) {
    return ExactEqualities.of(FilterParser.parse(filter));
  }

  @Test
  void takesTopLevelEqualitiesOfEveryTypeWithOneStoredForm() {
    assertThat(
            of(
                "S eq 'a' and G eq guid'00000000-0000-0000-0000-000000000001' and X eq X'0aff'"
                    + " and B eq true and L eq 5L and T eq datetime'2020-01-01T00:00:00Z'"))
        .containsExactly(
            Map.entry("S", List.of(PropertyValue.of("a"))),
            Map.entry("G", List.of(PropertyValue.of(new UUID(0, 1)))),
            Map.entry("X", List.of(PropertyValue.of(new byte[] {0x0a, (byte) 0xff}))),
            Map.entry("B", List.of(PropertyValue.of(true))),
            Map.entry("L", List.of(PropertyValue.of(5L))),
            Map.entry("T", List.of(PropertyValue.of(Instant.parse("2020-01-01T00:00:00Z")))));
  }

  @Test
  void looksThroughNestedAndsAndFlippedOperandsButNotOrNot() {
    assertThat(of("(Price gt 990 and ('c7' eq Category)) and (Flag and (A eq 'x' or B eq 'y'))"))
        .containsExactly(
            Map.entry("Category", List.of(PropertyValue.of("c7"))),
            Map.entry("Flag", List.of(PropertyValue.of(true))));
    assertThat(of("A eq 'x' or B eq 'y'")).isEmpty();
    assertThat(of("not (A eq 'x') and not (B ne 'y')")).isEmpty();
  }

  @Test
  void leavesOutInt32DoubleOtherOperatorsAndSystemProperties() {
    assertThat(of("I eq 5 and D eq 1.5 and D eq 0.0 and S ne 'a' and S ge 'b' and L lt 3L"))
        .isEmpty();
    assertThat(
            of(
                "PartitionKey eq 'p' and RowKey eq 'r' and Timestamp eq datetime'2020-01-01T00:00:00Z'"))
        .isEmpty();
  }

  @Test
  void keepsEveryValueOfAPropertyNamedTwice() {
    assertThat(of("S eq 'a' and S eq 'b' and S eq 'a'"))
        .containsExactly(
            Map.entry(
                "S", List.of(PropertyValue.of("a"), PropertyValue.of("b"), PropertyValue.of("a"))));
  }
}
