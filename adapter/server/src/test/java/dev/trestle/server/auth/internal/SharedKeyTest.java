package dev.trestle.server.auth.internal;

import static dev.trestle.server.auth.internal.GrantAssertions.assertFullAccess;
import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SharedKeyTest {
  static final String ACCOUNT = "acct";
  static final String KEY1 = "a2V5LW9uZS1mb3ItdGVzdHMtb25seQ==";
  static final String KEY2 = "c2Vjb25kLWtleS1mb3ItdGVzdHM=";
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  RequestAuthenticator authenticator =
      authenticator(false, RequestAuthenticator.DEFAULT_CLOCK_SKEW);

  static RequestAuthenticator authenticator(boolean anonymous, Duration skew) {
    return new RequestAuthenticator(
        Map.of(ACCOUNT, List.of(KEY1, KEY2)),
        (a, t) -> List.of(),
        Clock.fixed(NOW, ZoneOffset.UTC),
        anonymous,
        skew);
  }

  static String rfc1123(Instant instant) {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
  }

  static FakeRequest lite(String method, String url, String key, Instant date) {
    FakeRequest request = FakeRequest.of(method, url).header("x-ms-date", rfc1123(date));
    String resource =
        "/"
            + ACCOUNT
            + request.rawPath()
            + (request.queryParameters("comp").isEmpty()
                ? ""
                : "?comp=" + request.queryParameters("comp").get(0));
    String signature = TestSigner.sign(key, rfc1123(date) + "\n" + resource);
    return request.header("Authorization", "SharedKeyLite " + ACCOUNT + ":" + signature);
  }

  static FakeRequest full(String method, String url, String contentType, String contentMd5) {
    FakeRequest request =
        FakeRequest.of(method, url)
            .header("x-ms-date", rfc1123(NOW))
            .header("Content-Type", contentType)
            .header("Content-MD5", contentMd5);
    String stringToSign =
        method
            + "\n"
            + (contentMd5 == null ? "" : contentMd5)
            + "\n"
            + (contentType == null ? "" : contentType)
            + "\n"
            + rfc1123(NOW)
            + "\n/"
            + ACCOUNT
            + request.rawPath();
    return request.header(
        "Authorization", "SharedKey " + ACCOUNT + ":" + TestSigner.sign(KEY1, stringToSign));
  }

  static final String TABLES = "http://127.0.0.1:10002/acct/Tables";

  @Test
  void sharedKeyLiteWithEitherKeyIsAccepted() {
    assertThat(authenticator.authenticate(lite("GET", TABLES, KEY1, NOW), ACCOUNT).keyRange())
        .isEmpty();
    assertThat(authenticator.authenticate(lite("GET", TABLES, KEY2, NOW), ACCOUNT).keyRange())
        .isEmpty();
  }

  @Test
  void sharedKeyLiteSignedWithAnotherKeyFails() {
    FakeRequest request = lite("GET", TABLES, "b3RoZXIta2V5", NOW);
    assertThatThrownBy(() -> authenticator.authenticate(request, ACCOUNT))
        .isInstanceOfSatisfying(
            AuthenticationFailedException.class,
            e -> {
              assertThat(e.status()).isEqualTo(403);
              assertThat(e.detail()).contains("string to sign").contains("/acct/acct/Tables");
            });
  }

  @Test
  void pathStyleCanonicalResourceNamesTheAccountTwice() {
    FakeRequest request = FakeRequest.of("GET", TABLES).header("x-ms-date", rfc1123(NOW));
    String signature = TestSigner.sign(KEY1, rfc1123(NOW) + "\n/acct/acct/Tables");
    request.header("Authorization", "SharedKeyLite acct:" + signature);

    assertFullAccess(authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void dateHeaderIsSignedWhenXmsDateIsAbsent() {
    FakeRequest request = FakeRequest.of("GET", TABLES).header("Date", rfc1123(NOW));
    request.header(
        "Authorization",
        "SharedKeyLite acct:" + TestSigner.sign(KEY1, rfc1123(NOW) + "\n/acct/acct/Tables"));

    assertFullAccess(authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void xmsDateTakesPrecedenceOverDate() {
    Instant other = NOW.minusSeconds(60);
    FakeRequest request =
        FakeRequest.of("GET", TABLES)
            .header("Date", rfc1123(NOW))
            .header("x-ms-date", rfc1123(other));
    request.header(
        "Authorization",
        "SharedKeyLite acct:" + TestSigner.sign(KEY1, rfc1123(NOW) + "\n/acct/acct/Tables"));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(request, ACCOUNT));

    request.header(
        "Authorization",
        "SharedKeyLite acct:" + TestSigner.sign(KEY1, rfc1123(other) + "\n/acct/acct/Tables"));
    assertFullAccess(authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void compParameterIsPartOfTheResourceAndOtherParametersAreNot() {
    FakeRequest acl = lite("GET", "http://h/acct/orders?comp=acl", KEY1, NOW);
    assertFullAccess(authenticator.authenticate(acl, ACCOUNT));

    FakeRequest withFilter =
        lite("GET", "http://h/acct/orders()", KEY1, NOW).param("$filter", "PartitionKey eq 'a'");
    assertFullAccess(authenticator.authenticate(withFilter, ACCOUNT));

    FakeRequest tampered = acl.copy().param("comp", "properties");
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(tampered, ACCOUNT));
  }

  @Test
  void signatureOverTheDecodedPathIsAccepted() {
    FakeRequest request =
        FakeRequest.of("GET", "http://h/acct/orders(PartitionKey='a%20b',RowKey='%C3%A9')")
            .header("x-ms-date", rfc1123(NOW));
    String signature =
        TestSigner.sign(KEY1, rfc1123(NOW) + "\n/acct/acct/orders(PartitionKey='a b',RowKey='é')");
    request.header("Authorization", "SharedKeyLite acct:" + signature);

    assertFullAccess(authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void signatureOverQuotesEscapedAsPercent27IsAcceptedForLiteralQuotes() {
    FakeRequest request =
        FakeRequest.of("GET", "http://h/acct/orders(PartitionKey='a',RowKey='b')")
            .header("x-ms-date", rfc1123(NOW));
    String signature =
        TestSigner.sign(
            KEY1, rfc1123(NOW) + "\n/acct/acct/orders(PartitionKey=%27a%27,RowKey=%27b%27)");
    request.header("Authorization", "SharedKeyLite acct:" + signature);

    assertFullAccess(authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void aSecondaryEndpointRequestMaySignThePrimaryPath() {
    FakeRequest request =
        FakeRequest.of("GET", "http://h/acct-secondary/?restype=service&comp=stats")
            .header("x-ms-date", rfc1123(NOW));
    String signature = TestSigner.sign(KEY1, rfc1123(NOW) + "\n/acct/acct/?comp=stats");
    request.header("Authorization", "SharedKeyLite acct:" + signature);

    assertFullAccess(authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void sharedKeySignsVerbContentTypeAndContentMd5() {
    String type = "application/json;odata=nometadata";
    assertFullAccess(authenticator.authenticate(full("POST", TABLES, type, null), ACCOUNT));
    assertFullAccess(
        authenticator.authenticate(full("PUT", TABLES, type, "Q2hlY2sgSW50ZWdyaXR5IQ=="), ACCOUNT));

    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> authenticator.authenticate(full("POST", TABLES, type, null).method("PUT"), ACCOUNT));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () ->
            authenticator.authenticate(
                full("POST", TABLES, type, null).header("Content-Type", "text/plain"), ACCOUNT));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () ->
            authenticator.authenticate(
                full("POST", TABLES, type, null).header("Content-MD5", "AAAA"), ACCOUNT));
  }

  @Test
  void liteSignatureIsNotAcceptedAsFullSharedKey() {
    FakeRequest request = lite("GET", TABLES, KEY1, NOW);
    request.header(
        "Authorization", request.header("Authorization").replace("SharedKeyLite", "SharedKey"));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void dateOlderOrNewerThanTheSkewFails() {
    assertFullAccess(
        authenticator.authenticate(lite("GET", TABLES, KEY1, NOW.minusSeconds(14 * 60)), ACCOUNT));
    assertFullAccess(
        authenticator.authenticate(lite("GET", TABLES, KEY1, NOW.plusSeconds(14 * 60)), ACCOUNT));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () ->
            authenticator.authenticate(
                lite("GET", TABLES, KEY1, NOW.minusSeconds(16 * 60)), ACCOUNT));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () ->
            authenticator.authenticate(
                lite("GET", TABLES, KEY1, NOW.plusSeconds(16 * 60)), ACCOUNT));
  }

  @Test
  void skewIsConfigurable() {
    RequestAuthenticator strict = authenticator(false, Duration.ofMinutes(1));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> strict.authenticate(lite("GET", TABLES, KEY1, NOW.minusSeconds(120)), ACCOUNT));
    assertFullAccess(strict.authenticate(lite("GET", TABLES, KEY1, NOW.minusSeconds(30)), ACCOUNT));
  }

  @Test
  void missingOrUnreadableDateFails() {
    FakeRequest noDate = lite("GET", TABLES, KEY1, NOW).header("x-ms-date", null);
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(noDate, ACCOUNT));
    FakeRequest badDate = lite("GET", TABLES, KEY1, NOW).header("x-ms-date", "yesterday");
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(badDate, ACCOUNT));
  }

  @Test
  void undatedSharedKeyIsAcceptedOnlyWhenLooseAndOnlyOverAnEmptyDateLine() {
    RequestAuthenticator loose =
        new RequestAuthenticator(
            Map.of(ACCOUNT, List.of(KEY1, KEY2)),
            (a, t) -> List.of(),
            Clock.fixed(NOW, ZoneOffset.UTC),
            false,
            RequestAuthenticator.DEFAULT_CLOCK_SKEW,
            null,
            true);
    FakeRequest liteUndated =
        FakeRequest.of("GET", TABLES)
            .header(
                "Authorization",
                "SharedKeyLite " + ACCOUNT + ":" + TestSigner.sign(KEY1, "\n/acct/acct/Tables"));
    FakeRequest fullUndated =
        FakeRequest.of("GET", TABLES)
            .header(
                "Authorization",
                "SharedKey "
                    + ACCOUNT
                    + ":"
                    + TestSigner.sign(KEY2, "GET\n\n\n\n/acct/acct/Tables"));
    assertFullAccess(loose.authenticate(liteUndated, ACCOUNT));
    assertFullAccess(loose.authenticate(fullUndated, ACCOUNT));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> authenticator.authenticate(liteUndated, ACCOUNT));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> authenticator.authenticate(fullUndated, ACCOUNT));
    // a date that is given is still signed and checked against the clock
    FakeRequest stale = lite("GET", TABLES, KEY1, NOW.minus(Duration.ofHours(1)));
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> loose.authenticate(stale, ACCOUNT));
  }

  @Test
  void malformedAuthorizationHeaderIsABadRequest() {
    for (String header :
        List.of(
            "SharedKey",
            "SharedKey acct",
            "SharedKey :sig",
            "SharedKey acct:",
            "Bearer abc.def",
            "Basic YTpi")) {
      FakeRequest request =
          FakeRequest.of("GET", TABLES)
              .header("x-ms-date", rfc1123(NOW))
              .header("Authorization", header);
      assertFails(
          TableErrorCode.INVALID_AUTHENTICATION_INFO,
          () -> authenticator.authenticate(request, ACCOUNT));
    }
  }

  @Test
  void signatureThatIsNotBase64Fails() {
    FakeRequest request =
        lite("GET", TABLES, KEY1, NOW).header("Authorization", "SharedKeyLite acct:not*base64!");
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(request, ACCOUNT));
  }

  @Test
  void headerAccountMustBeTheRequestAccount() {
    FakeRequest request = lite("GET", "http://h/other/Tables", KEY1, NOW);
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(request, "other"));
  }

  @Test
  void unknownAccountFails() {
    RequestAuthenticator none =
        new RequestAuthenticator(
            Map.of("someone", List.of(KEY1)),
            (a, t) -> List.of(),
            Clock.fixed(NOW, ZoneOffset.UTC),
            false);
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> none.authenticate(lite("GET", TABLES, KEY1, NOW), ACCOUNT));
  }

  @Test
  void requestWithoutCredentialsNeedsAnonymousAccess() {
    FakeRequest request = FakeRequest.of("GET", TABLES);
    assertThatThrownBy(() -> authenticator.authenticate(request, ACCOUNT))
        .isInstanceOfSatisfying(
            TableException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(TableErrorCode.NO_AUTHENTICATION_INFORMATION);
              assertThat(e.status()).isEqualTo(401);
            });

    Grant grant = authenticator(true, Duration.ZERO).authenticate(request, ACCOUNT);
    grant.authorize(Operation.SET_TABLE_ACL, "orders");
    grant.authorizeEntity(Operation.DELETE_ENTITY, "orders", "p", "r");
    assertThat(grant.keyRange()).isEmpty();
  }

  @Test
  void anonymousAccessDoesNotExcuseAWrongSignature() {
    FakeRequest request = lite("GET", TABLES, "b3RoZXIta2V5", NOW);
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> authenticator(true, Duration.ofMinutes(15)).authenticate(request, ACCOUNT));
  }

  @Test
  void sharedKeyGrantsEveryOperation() {
    Grant grant = authenticator.authenticate(lite("GET", TABLES, KEY1, NOW), ACCOUNT);
    for (Operation operation : Operation.values()) {
      grant.authorize(operation, "orders");
      grant.authorizeEntity(operation, "orders", "p", "r");
    }
  }

  @Test
  void configurationIsValidatedEagerly() {
    assertThatThrownBy(
            () ->
                new RequestAuthenticator(
                    Map.of("a", List.of("not base64!")),
                    (a, t) -> List.of(),
                    Clock.systemUTC(),
                    false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a'");
    assertThatThrownBy(
            () ->
                new RequestAuthenticator(
                    Map.of("a", List.of()), (a, t) -> List.of(), Clock.systemUTC(), false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> authenticator(false, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sasParametersAreKnownByName() {
    assertThat(SasParameters.isSasParameter("sig")).isTrue();
    assertThat(SasParameters.isSasParameter("tn")).isTrue();
    assertThat(SasParameters.isSasParameter("$filter")).isFalse();
    assertThat(SasParameters.isSasParameter("comp")).isFalse();
    assertThat(RequestAuthenticator.isSasParameter("spk")).isTrue();
  }
}
