package dev.trestle.server.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import org.junit.jupiter.api.Test;

class MediaFormatsTest {
  @Test
  void jsonOrNothingInParticularIsServed() {
    for (String accept :
        new String[] {
          null,
          "",
          "*/*",
          "application/json",
          "application/json;odata=nometadata",
          "application/atom+xml,application/json",
          "text/html"
        }) {
      assertThatCode(() -> MediaFormats.check("2019-02-02", accept, "application/json"))
          .as(accept)
          .doesNotThrowAnyException();
    }
    assertThatCode(() -> MediaFormats.check(null, "application/json", null))
        .doesNotThrowAnyException();
    assertThatCode(() -> MediaFormats.check("2013-08-15", "application/json", null))
        .doesNotThrowAnyException();
  }

  @Test
  void atomAskedForOrSentIsAtomFormatNotSupported() {
    assertRefused(
        "2019-02-02", "application/atom+xml", null, TableErrorCode.ATOM_FORMAT_NOT_SUPPORTED);
    assertRefused("2019-02-02", "application/xml", null, TableErrorCode.ATOM_FORMAT_NOT_SUPPORTED);
    assertRefused(
        "2019-02-02",
        "application/json",
        "application/atom+xml; charset=utf-8",
        TableErrorCode.ATOM_FORMAT_NOT_SUPPORTED);
  }

  @Test
  void jsonBeforeItsVersionIsJsonFormatNotSupported() {
    assertRefused("2011-08-18", "application/json", null, TableErrorCode.JSON_FORMAT_NOT_SUPPORTED);
    assertRefused("2009-09-19", null, "application/json", TableErrorCode.JSON_FORMAT_NOT_SUPPORTED);
    assertThatCode(() -> MediaFormats.check("2011-08-18", null, null)).doesNotThrowAnyException();
  }

  private static void assertRefused(
      String version, String accept, String contentType, TableErrorCode code) {
    assertThatThrownBy(() -> MediaFormats.check(version, accept, contentType))
        .isInstanceOfSatisfying(
            TableException.class, e -> assertThat(e.errorCode()).isEqualTo(code));
  }
}
