package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A header that Shared Key reads, given twice, is refused with 403 AuthenticationFailed as Azure
 * does, whichever of the two values is valid: taking the first would let what was signed and what
 * is checked disagree.
 */
class SharedKeyRepeatedHeadersTest extends ServerTest {

  @DatabaseTest
  void aRepeatedAuthorizationOrDateHeaderIsAuthenticationFailed(TableService tables) {
    start(tables);
    String path = "/" + fx.newTable("keydup").getTableName() + "()";
    assertThat(fx.raw().call("GET", path).send().status()).isEqualTo(200);
    String now = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    String[][] repeats = {
      {
        "Authorization",
        "SharedKey " + fx.account() + ":AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
      },
      {"x-ms-date", now},
      {"Date", now}
    };
    for (String[] repeat : repeats) {
      // Date once is fine beside x-ms-date; twice is not
      if (repeat[0].equals("Date")) {
        assertThat(fx.raw().call("GET", path).header(repeat[0], repeat[1]).send().status())
            .as(repeat[0] + " once")
            .isEqualTo(200);
        assertErrorCode(
            fx.raw()
                .call("GET", path)
                .header(repeat[0], repeat[1])
                .repeatHeader(repeat[0], repeat[1])
                .send(),
            403,
            "AuthenticationFailed");
      } else {
        assertErrorCode(
            fx.raw().call("GET", path).repeatHeader(repeat[0], repeat[1]).send(),
            403,
            "AuthenticationFailed");
      }
    }
  }

  @DatabaseTest
  void aRepeatedCompParameterIsRefusedRatherThanRoutedByItsFirstValue(TableService tables) {
    start(tables);
    String table = fx.newTable("compdup").getTableName();
    assertThat(fx.raw().call("GET", "/" + table + "?comp=acl").send().status()).isEqualTo(200);
    assertErrorCode(
        fx.raw().call("GET", "/" + table + "?comp=acl&comp=acl").send(),
        400,
        "InvalidQueryParameterValue");
  }
}
