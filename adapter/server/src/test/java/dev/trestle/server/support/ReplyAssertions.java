package dev.trestle.server.support;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Fails with Azure code X" over HTTP: the status and the {@code x-ms-error-code} header, and the
 * body's form.
 */
public final class ReplyAssertions {
  private ReplyAssertions() {}

  /** The reply has this status and this {@code x-ms-error-code}. */
  public static void assertErrorCode(RawClient.Reply reply, int status, String code) {
    String request = reply.response().request().method() + " " + reply.response().request().uri();
    assertThat(reply.status()).as("%s: %s", request, reply.body()).isEqualTo(status);
    assertThat(reply.header("x-ms-error-code")).as(request).isEqualTo(code);
  }

  /**
   * As {@link #assertErrorCode}, with the service's JSON error body naming the code, request id and
   * time.
   */
  public static void assertError(RawClient.Reply reply, int status, String code) {
    assertErrorCode(reply, status, code);
    assertThat(reply.body())
        .matches(
            "(?s)\\{\"odata\\.error\":\\{\"code\":\""
                + code
                + "\",\"message\":\\{\"lang\":\"en-US\",\"value\":\".*\\\\nRequestId:[0-9a-f-]{36}\\\\nTime:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{7}Z\"}}}");
    assertThat(reply.body()).doesNotContain("Exception").doesNotContain("\tat ");
  }
}
