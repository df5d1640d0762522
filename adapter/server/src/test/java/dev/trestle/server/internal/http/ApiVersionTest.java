package dev.trestle.server.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import org.junit.jupiter.api.Test;

class ApiVersionTest {

  @Test
  void acceptsAbsentAndWellFormedVersionsOldAndNew() {
    for (String version :
        new String[] {
          null,
          "",
          "2009-09-19",
          "2013-08-15",
          "2018-03-28",
          "2019-02-02",
          "2020-12-06",
          "2025-11-05",
          dev.trestle.model.TableLimits.NEWEST_API_VERSION,
          " 2019-02-02 "
        }) {
      assertThatCode(() -> ApiVersion.check(version)).as(version).doesNotThrowAnyException();
    }
  }

  @Test
  void refusesVersionsAfterTheNewestKnownUnlessTheCheckIsSkipped() {
    String newest = dev.trestle.model.TableLimits.NEWEST_API_VERSION;
    String next = java.time.LocalDate.parse(newest).plusDays(1).toString();
    for (String version : new String[] {next, "2099-01-01"}) {
      assertThatThrownBy(() -> ApiVersion.check(version))
          .as(version)
          .isInstanceOfSatisfying(
              TableException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(TableErrorCode.INVALID_HEADER_VALUE);
                assertThat(e.getMessage())
                    .startsWith(
                        "The value for one of the HTTP headers is not in the correct format.");
              });
      assertThatCode(() -> ApiVersion.check(version, true)).doesNotThrowAnyException();
    }
    assertThatThrownBy(() -> ApiVersion.check("invalid", true)).isInstanceOf(TableException.class);
  }

  @Test
  void rejectsValuesThatAreNotVersionsAsInvalidHeaderValue() {
    for (String version :
        new String[] {
          "invalid", "2019-02", "2019-13-01", "2019-02-30", "19-02-02", "2008-01-01", "2019-02-02x"
        }) {
      assertThatThrownBy(() -> ApiVersion.check(version))
          .as(version)
          .isInstanceOfSatisfying(
              TableException.class,
              e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.INVALID_HEADER_VALUE));
    }
  }

  @Test
  void aVersionThatPassedWhenSkippingTheCheckIsStillRefusedWithTheCheck() {
    ApiVersion.check("2099-01-01", true);
    ApiVersion.check("2099-01-01", true);

    assertThatThrownBy(() -> ApiVersion.check("2099-01-01")).isInstanceOf(TableException.class);
    ApiVersion.check("2019-02-02");
    assertThatThrownBy(() -> ApiVersion.check("2019-02-02x")).isInstanceOf(TableException.class);
    ApiVersion.check("2019-02-02");
  }
}
