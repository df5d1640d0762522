package dev.trestle.model;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.trestle.TableErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PropertyNamesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a",
        "_",
        "Name",
        "_private",
        "camelCase9",
        "Gr\u00f6\u00dfe",
        "\u65e5\u672c",
        "a\u0301",
        "snake_case_2",
        "PartitionKey",
        "Timestamp"
      })
  void validNames(String name) {
    assertThat(PropertyNames.isValid(name)).isTrue();
    assertThatCode(() -> PropertyNames.validate(name)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "9lives",
        "with space",
        "dash-name",
        "dot.name",
        "odata.etag",
        "a@b",
        "$x",
        "\u00b5x",
        "x\u00b7",
        "\u0301a",
        "a\ud83d\ude00",
        "tab\t",
        "\ud800"
      })
  void invalidNames(String name) {
    assertFails(TableErrorCode.PROPERTY_NAME_INVALID, () -> PropertyNames.validate(name));
  }

  @Test
  void twoHundredFiftyFiveCharactersPassAnd256AreTooLong() {
    assertThatCode(() -> PropertyNames.validate("N" + "a".repeat(254))).doesNotThrowAnyException();
    assertFails(
        TableErrorCode.PROPERTY_NAME_TOO_LONG, () -> PropertyNames.validate("N" + "a".repeat(255)));
  }

  @Test
  void lengthIsCheckedBeforeCharacters() {
    assertFails(
        TableErrorCode.PROPERTY_NAME_TOO_LONG, () -> PropertyNames.validate("-".repeat(300)));
  }
}
