package dev.trestle.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.testing.RandomEntities;
import dev.trestle.testing.RandomFilters;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Bad input never escapes as anything but InvalidInput: mangled filters either parse or fail
 * cleanly.
 */
class FilterParserFuzzTest {
  private static final String ALPHABET =
      " ()'-.0123456789eEdDLlXxaAnNoOtTqgGrRsSuUiIfF_:+\t\u00e9\ud83d\ude00";

  @Test
  void mangledFiltersParseOrFailWithInvalidInput() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    List<TableEntity> entities = RandomEntities.generate(random, 50);
    int failures = 0;
    for (int i = 0; i < 20_000; i++) {
      String filter = mangle(random, RandomFilters.generate(random, entities));
      try {
        FilterParser.parse(filter);
      } catch (TableException e) {
        assertThat(e.errorCode())
            .as("seed %d, filter %s", seed, filter)
            .isEqualTo(TableErrorCode.INVALID_INPUT);
        assertThat(e.getMessage()).as("seed %d, filter %s", seed, filter).isNotBlank();
        failures++;
      }
    }
    assertThat(failures).as("seed %d", seed).isPositive();
  }

  // Deletes, duplicates or replaces a few characters, or cuts the filter short.
  private static String mangle(Random random, String filter) {
    StringBuilder s = new StringBuilder(filter);
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits && !s.isEmpty(); e++) {
      int at = random.nextInt(s.length());
      switch (random.nextInt(4)) {
        case 0 -> s.deleteCharAt(at);
        case 1 -> s.insert(at, s.charAt(at));
        case 2 -> s.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        default -> s.setLength(at);
      }
    }
    return s.toString();
  }
}
