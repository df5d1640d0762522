package dev.trestle.store.internal.h2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.database.TypedComparison;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code trestle_matches} (one call per row, one pass over the document) answers as the {@code
 * trestle_compare} calls it replaces, combined as the filter combines them: on documents as Trestle
 * writes them and on the forms its scanner leaves to the JSON parser (escapes, spaces, duplicates,
 * non-integer numbers, values that are not scalars).
 */
class H2FunctionsTest {
  private static final List<String> DOCUMENTS =
      List.of(
          "{}",
          "{\"A\":[\"i\",5,0],\"B\":[\"s\",\"x\",1]}",
          "{\"A\":[\"l\",-5000000000,0],\"B\":[\"s\",\"O'Brien \\\"q\\\" \\u00e9\",1]}",
          "{\"Pad\":[\"s\",\"] } , [ \\\\\\\"\",0],\"A\":[\"d\",\"NaN\",1],\"B\":[\"s\",\"y\",2]}",
          "{\"A\":[\"d\",\"-0.0\",0],\"B\":[\"b\",true,1],\"C\":[\"t\",15778368000000000,2]}",
          " { \"A\" : [ \"i\" , 7 , 0 ] , \"B\" : [ \"s\" , \"\" , 1 ] } ",
          "{\"A\":[\"i\",3,0],\"A\":[\"i\",9,1]}",
          "{\"\\u0041\":[\"i\",4,0],\"B\":[\"g\",\"0f8fad5b-d9cb-469f-a165-70867728950e\",1]}",
          "{\"N\":[\"x\",\"0aff\",0],\"O\":{\"k\":[1,{\"z\":\"}\"}]},\"A\":[\"d\",\"1.0E10\",1]}",
          "{\"A\":[\"i\",99999999999999999999,0]}",
          "{\"A\":[\"i\",1e3,0]}",
          "{\"A\":[\"b\",null,0],\"B\":[\"s\",null,1]}",
          "{\"B\":[\"s\",\"\uD83D\uDE00\",0],\"A\":[\"i\",-0,1]}");

  private static final List<String> FILTERS =
      List.of(
          "A eq 5",
          "A gt 4 and B eq 'x'",
          "A ne 5 or not (B lt 'y')",
          "A le -5000000000L",
          "A eq 0.0 or A ne 1.5",
          "B eq true and C ge datetime'2020-01-01T00:00:00Z'",
          "B eq guid'0F8FAD5B-D9CB-469F-A165-70867728950E' or N ge X'0a'",
          "B gt 'O' and B lt 'P'",
          "A eq 3 and (true or Missing eq 1)",
          "A gt 1.0E9 and not (Missing ne 'z')",
          "B ge '\uD83D' and A eq 0",
          "B ne 'a' or B eq ''");

  @Test
  void oneCallPerRowAnswersAsTheComparisonsItReplaces() {
    for (String document : DOCUMENTS) {
      for (String text : FILTERS) {
        FilterExpression filter = FilterParser.parse(text);
        String program = FilterProgram.write(filter);
        assertThat(outcome(() -> H2Functions.matches(document, program)))
            .as("%s on %s", text, document)
            .isEqualTo(outcome(() -> compared(filter, document)));
      }
    }
  }

  @Test
  void aProgramReadsBackItsPropertiesEachOnce() {
    FilterProgram program =
        FilterProgram.read(
            FilterProgram.write(FilterParser.parse("A gt 1 and (B eq 'x' or A lt 9)")));
    assertThat(program.properties).containsExactly("A", "B");
  }

  /** What trestle_compare makes of the filter, comparison by comparison. */
  private static boolean compared(FilterExpression filter, String document) {
    return switch (filter) {
      case FilterExpression.And and ->
          compared(and.left(), document) && compared(and.right(), document);
      case FilterExpression.Or or ->
          compared(or.left(), document) || compared(or.right(), document);
      case FilterExpression.Not not -> !compared(not.operand(), document);
      case FilterExpression.Constant constant -> constant.value();
      case FilterExpression.Comparison comparison ->
          TypedComparison.of(comparison).stream()
              .anyMatch(
                  typed ->
                      H2Functions.compare(
                          document,
                          typed.property(),
                          typed.acceptedTypes().stream()
                              .map(t -> t.tag)
                              .collect(Collectors.joining()),
                          typed.operator().name(),
                          StoredType.of(typed.literal().type()).tag,
                          StoredType.text(typed.literal())));
      case FilterExpression.TextComparison t -> throw new IllegalArgumentException(t.toString());
    };
  }

  /** The result, or the kind of exception (a stored value that is not of its type). */
  private static String outcome(java.util.function.BooleanSupplier evaluation) {
    try {
      return Boolean.toString(evaluation.getAsBoolean());
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName();
    }
  }
}
