package dev.trestle.server.internal.cors;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableErrorCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CorsPolicyTest {
  static final CorsRule CONTOSO =
      CorsRule.of(
          "http://www.contoso.com, http://www.fabrikam.com",
          "PUT,GET",
          "x-ms-meta-data*,x-ms-meta-target*,content-type",
          "x-ms-meta-*,x-ms-request-id",
          200);
  static final CorsRule ANYONE_READS = CorsRule.of("*", "GET,HEAD", "*", "", 60);
  static final CorsPolicy POLICY = new CorsPolicy(List.of(CONTOSO, ANYONE_READS));

  static void assertPreflightFails(
      CorsPolicy policy, String origin, String method, String headers) {
    assertThat(
            assertFails(
                    TableErrorCode.CORS_PREFLIGHT_FAILURE,
                    () -> policy.matchPreflight(origin, method, headers))
                .status())
        .isEqualTo(403);
  }

  @Test
  void preflightMatchingAnExactOriginEchoesOriginMethodAndHeaders() {
    Map<String, String> headers =
        POLICY.matchPreflight("http://www.contoso.com", "PUT", "content-type, x-ms-meta-data-foo");

    assertThat(headers)
        .containsExactly(
            Map.entry("Access-Control-Allow-Origin", "http://www.contoso.com"),
            Map.entry("Access-Control-Allow-Methods", "PUT"),
            Map.entry("Access-Control-Allow-Headers", "content-type,x-ms-meta-data-foo"),
            Map.entry("Access-Control-Max-Age", "200"),
            Map.entry("Access-Control-Allow-Credentials", "true"));
  }

  @Test
  void originsAndHeadersCompareWithoutCase() {
    assertThat(
            POLICY.matchPreflight(
                "HTTP://WWW.FABRIKAM.COM", "GET", "Content-Type,X-MS-META-TARGET-1"))
        .containsEntry("Access-Control-Allow-Origin", "HTTP://WWW.FABRIKAM.COM");
  }

  @Test
  void preflightWithoutRequestedHeadersHasNoAllowHeaders() {
    assertThat(POLICY.matchPreflight("http://www.contoso.com", "GET", null))
        .doesNotContainKey("Access-Control-Allow-Headers");
  }

  @Test
  void firstMatchingRuleWinsAndAnyOriginRuleAnswersStar() {
    Map<String, String> headers =
        POLICY.matchPreflight("http://elsewhere.example", "GET", "x-custom");

    assertThat(headers)
        .containsEntry("Access-Control-Allow-Origin", "*")
        .containsEntry("Access-Control-Max-Age", "60")
        .doesNotContainKey("Access-Control-Allow-Credentials");
  }

  @Test
  void ruleMustAllowOriginMethodAndEveryHeader() {
    assertPreflightFails(POLICY, "http://www.contoso.com", "DELETE", null);
    assertPreflightFails(POLICY, "http://elsewhere.example", "PUT", null);
    assertPreflightFails(POLICY, "http://www.contoso.com", "PUT", "content-type,x-other");
    assertPreflightFails(POLICY, "http://www.contoso.com.evil", "PUT", null);
  }

  @Test
  void contosoHeaderFailsOnContosoRuleButAnyoneRuleStillAllowsGet() {
    assertThat(POLICY.matchPreflight("http://www.contoso.com", "GET", "x-other"))
        .containsEntry("Access-Control-Allow-Origin", "*");
  }

  @Test
  void preflightWithoutRulesFails() {
    assertPreflightFails(new CorsPolicy(List.of()), "http://www.contoso.com", "GET", null);
    assertThat(new CorsPolicy(null).enabled()).isFalse();
    assertThat(POLICY.enabled()).isTrue();
  }

  @Test
  void preflightWithoutOriginOrMethodIsABadRequest() {
    for (String[] missing :
        new String[][] {{null, "GET"}, {"http://www.contoso.com", null}, {"", "GET"}}) {
      assertThat(
              assertFails(
                      TableErrorCode.INVALID_HEADER_VALUE,
                      () -> POLICY.matchPreflight(missing[0], missing[1], null))
                  .status())
          .isEqualTo(400);
    }
  }

  @Test
  void actualRequestFromExactOriginGetsOriginCredentialsExposedHeadersAndVary() {
    Map<String, String> headers =
        POLICY.matchRequest(
            "http://www.contoso.com",
            "GET",
            List.of("x-ms-meta-color", "x-ms-request-id", "ETag", "Content-Type"));

    assertThat(headers)
        .containsExactly(
            Map.entry("Access-Control-Allow-Origin", "http://www.contoso.com"),
            Map.entry("Access-Control-Expose-Headers", "x-ms-request-id,x-ms-meta-color"),
            Map.entry("Access-Control-Allow-Credentials", "true"),
            Map.entry("Vary", "Origin"));
  }

  @Test
  void actualNonGetRequestFromExactOriginHasNoVary() {
    assertThat(POLICY.matchRequest("http://www.contoso.com", "PUT", List.of()))
        .containsEntry("Access-Control-Allow-Origin", "http://www.contoso.com")
        .doesNotContainKey("Vary");
  }

  @Test
  void actualRequestMatchingAnyOriginRuleGetsStarWithoutVaryOrCredentials() {
    assertThat(POLICY.matchRequest("http://elsewhere.example", "GET", List.of("ETag")))
        .containsExactly(Map.entry("Access-Control-Allow-Origin", "*"));
  }

  @Test
  void actualRequestWithoutMatchGetsOnlyVaryOnGetAndHead() {
    CorsPolicy contosoOnly = new CorsPolicy(List.of(CONTOSO));
    assertThat(contosoOnly.matchRequest("http://elsewhere.example", "GET", List.of()))
        .containsExactly(Map.entry("Vary", "Origin"));
    assertThat(contosoOnly.matchRequest("http://elsewhere.example", "HEAD", List.of()))
        .containsExactly(Map.entry("Vary", "Origin"));
    assertThat(contosoOnly.matchRequest("http://elsewhere.example", "POST", List.of())).isEmpty();
    assertThat(contosoOnly.matchRequest("http://www.contoso.com", "DELETE", List.of())).isEmpty();
  }

  @Test
  void requestWithoutOriginMatchesOnlyAnyOriginRules() {
    assertThat(POLICY.matchRequest(null, "GET", List.of()))
        .containsExactly(Map.entry("Access-Control-Allow-Origin", "*"));
    assertThat(new CorsPolicy(List.of(CONTOSO)).matchRequest(null, "GET", List.of()))
        .containsExactly(Map.entry("Vary", "Origin"));
  }

  @Test
  void withoutRulesNothingIsAdded() {
    assertThat(new CorsPolicy(List.of()).matchRequest("http://www.contoso.com", "GET", List.of()))
        .isEmpty();
  }

  @Test
  void ruleListsAreTrimmedAndMethodsUpperCased() {
    CorsRule rule = CorsRule.of(" http://a.com ,, http://b.com", "get, Put", null, "", 5);
    assertThat(rule.allowedOrigins()).containsExactly("http://a.com", "http://b.com");
    assertThat(rule.allowedMethods()).containsExactly("GET", "PUT");
    assertThat(rule.allowedHeaders()).isEmpty();
    assertThat(rule.allowsAnyOrigin()).isFalse();
  }
}
