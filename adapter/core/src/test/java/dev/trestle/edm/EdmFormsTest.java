package dev.trestle.edm;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableErrorCode;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EdmFormsTest {
  @Test
  void guidsAreStrictInJsonAndInLiterals() {
    UUID id = UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833");
    assertThat(EdmGuid.parse("C9DA6455-213D-42C9-9A79-3E9149A57833")).isEqualTo(id);
    assertThatThrownBy(() -> EdmGuid.parse("1-2-3-4-5"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(EdmGuid.parseLiteral("1-2-3-4-5")).isNull();
  }

  @Test
  void integersArePlainDecimalDigits() {
    assertThat(EdmInteger.parseInt64("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    assertThat(EdmInteger.formatInt64(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
    for (String bad : new String[] {"+5", " 5", "5.0", "1e3", ""}) {
      assertThatThrownBy(() -> EdmInteger.parseInt64(bad))
          .as(bad)
          .isInstanceOf(NumberFormatException.class);
    }
    assertThatThrownBy(() -> EdmInteger.parseInt32("3000000000"))
        .isInstanceOf(NumberFormatException.class);
  }

  @Test
  void doublesInStringsAreNumbersOrTheSpecialNames() {
    assertThat(EdmDouble.parse("-1.5e3")).isEqualTo(-1500.0);
    assertThat(EdmDouble.parse("INF")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(EdmDouble.special(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(EdmDouble.special(1.0)).isNull();
    assertThatThrownBy(() -> EdmDouble.parse("0x1p3")).isInstanceOf(NumberFormatException.class);
    assertThatThrownBy(() -> EdmDouble.parse("1e309")).isInstanceOf(NumberFormatException.class);
  }

  @Test
  void binaryIsBase64InJsonAndHexInLiterals() {
    assertThat(EdmBinary.format(new byte[] {0, 1, -1})).isEqualTo("AAH/");
    assertThat(EdmBinary.parse("AAH/")).containsExactly(0, 1, -1);
    assertThat(EdmBinary.parseLiteral("0001ff")).containsExactly(0, 1, -1);
    assertThat(EdmBinary.parseLiteral("abc")).isNull();
  }

  @Test
  void dateTimesHaveTheServiceRangeInJsonButNotInLiterals() {
    assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> EdmDateTime.parse("1600-12-31T23:59:59Z"));
    assertThat(EdmDateTime.parseLiteral("1600-12-31T23:59:59Z"))
        .isEqualTo(Instant.parse("1600-12-31T23:59:59Z"));
    assertThat(EdmDateTime.parseIso8601("2021-09-21"))
        .isEqualTo(Instant.parse("2021-09-21T00:00:00Z"));
    assertThat(EdmDateTime.formatSevenDigits(Instant.parse("2021-09-21T01:04:07.09805629Z")))
        .isEqualTo("2021-09-21T01:04:07.0980562Z");
  }
}
