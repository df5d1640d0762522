package dev.trestle.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PropertyNamesTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "_", "Name", "_private", "camelCase9", "Gr\u00f6\u00dfe", "\u65e5\u672c", "a\u0301", "snake_case_2",
      "PartitionKey", "Timestamp"})
  void validNames(String name) {
    assertThat(PropertyNames.isValid(name)).isTrue();
    assertThatCode(() -> PropertyNames.validate(name)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "9lives", "with space", "dash-name", "dot.name", "odata.etag", "a@b", "$x", "\u00b5x", "x\u00b7",
      "\u0301a", "a\ud83d\ude00", "tab\t", "\ud800"})
  void invalidNames(String name) {
    TableException e = catchThrowableOfType(TableException.class, () -> PropertyNames.validate(name));
    assertThat(e.errorCode()).isEqualTo(TableErrorCode.PROPERTY_NAME_INVALID);
  }

  @Test
  void twoHundredFiftyFiveCharactersPassAnd256AreTooLong() {
    assertThatCode(() -> PropertyNames.validate("N" + "a".repeat(254))).doesNotThrowAnyException();
    TableException e = catchThrowableOfType(TableException.class, () -> PropertyNames.validate("N" + "a".repeat(255)));
    assertThat(e.errorCode()).isEqualTo(TableErrorCode.PROPERTY_NAME_TOO_LONG);
  }

  @Test
  void lengthIsCheckedBeforeCharacters() {
    TableException e = catchThrowableOfType(TableException.class, () -> PropertyNames.validate("-".repeat(300)));
    assertThat(e.errorCode()).isEqualTo(TableErrorCode.PROPERTY_NAME_TOO_LONG);
  }
}
