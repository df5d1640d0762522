package dev.trestle.server.auth.internal;

import static dev.trestle.server.auth.internal.GrantAssertions.READ;
import static dev.trestle.server.auth.internal.GrantAssertions.assertAllowsOnly;
import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableErrorCode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class AccountSasTest {
  static final String ACCOUNT = "acct";
  static final String KEY = "a2V5LW9uZS1mb3ItdGVzdHMtb25seQ==";
  static final String KEY2 = "c2Vjb25kLWtleS1mb3ItdGVzdHM=";
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  static final String URL = "http://127.0.0.1:10002/acct/orders()";

  final RequestAuthenticator authenticator =
      new RequestAuthenticator(
          Map.of(ACCOUNT, List.of(KEY, KEY2)),
          (a, t) -> List.of(),
          Clock.fixed(NOW, ZoneOffset.UTC),
          false);

  static Map<String, String> fields(String sp, String srt) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("sv", "2019-02-02");
    f.put("ss", "t");
    f.put("srt", srt);
    f.put("sp", sp);
    f.put("se", "2026-03-02T00:00:00Z");
    return f;
  }

  Grant grant(Map<String, String> fields) {
    return authenticator.authenticate(
        SasTokens.request("GET", URL, SasTokens.account(ACCOUNT, KEY, fields)), ACCOUNT);
  }

  /** Each operation with the one resource type and permission the account SAS table gives it. */
  @ParameterizedTest
  @CsvSource({
    "GET_SERVICE_PROPERTIES, s, r",
    "SET_SERVICE_PROPERTIES, s, w",
    "GET_SERVICE_STATS, s, r",
    "QUERY_TABLES, c, l",
    "CREATE_TABLE, c, a",
    "CREATE_TABLE, c, c",
    "CREATE_TABLE, c, w",
    "DELETE_TABLE, c, d",
    "QUERY_ENTITIES, o, r",
    "GET_ENTITY, o, r",
    "INSERT_ENTITY, o, a",
    "UPDATE_ENTITY, o, u",
    "MERGE_ENTITY, o, u",
    "INSERT_OR_REPLACE_ENTITY, o, au",
    "INSERT_OR_MERGE_ENTITY, o, au",
    "DELETE_ENTITY, o, d"
  })
  void operationNeedsItsResourceTypeAndPermission(
      Operation operation, String resourceType, String permission) {
    grant(fields(permission, resourceType)).authorize(operation, "orders");
    grant(fields(permission, resourceType)).authorizeEntity(operation, "orders", "p", "r");

    String otherTypes = "sco".replace(resourceType, "");
    assertFails(
        TableErrorCode.AUTHORIZATION_RESOURCE_TYPE_MISMATCH,
        () -> grant(fields("rwdlacup", otherTypes)).authorize(operation, "orders"));

    // Create Table is allowed by any of a, c and w: none of them may remain.
    String sufficient = operation == Operation.CREATE_TABLE ? "acw" : permission;
    String otherPermissions = "rwdlacup".replaceAll("[" + sufficient + "]", "");
    assertFails(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        () -> grant(fields(otherPermissions, "sco")).authorize(operation, "orders"));
  }

  @ParameterizedTest
  @CsvSource({
    "INSERT_OR_REPLACE_ENTITY, a",
    "INSERT_OR_REPLACE_ENTITY, u",
    "INSERT_OR_MERGE_ENTITY, a",
    "INSERT_OR_MERGE_ENTITY, u"
  })
  void upsertNeedsBothAddAndUpdate(Operation operation, String permission) {
    assertFails(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        () -> grant(fields(permission, "o")).authorize(operation, "orders"));
  }

  @ParameterizedTest
  @EnumSource(
      value = Operation.class,
      names = {"GET_TABLE_ACL", "SET_TABLE_ACL"})
  void storedAccessPoliciesNeedSharedKey(Operation operation) {
    assertFails(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        () -> grant(fields("rwdlacup", "sco")).authorize(operation, "orders"));
  }

  @Test
  void servicesMustIncludeTable() {
    Map<String, String> f = fields("r", "o");
    f.put("ss", "bq");
    assertFails(TableErrorCode.AUTHORIZATION_SERVICE_MISMATCH, () -> grant(f));
    f.put("ss", "bqtf");
    grant(f).authorize(Operation.QUERY_ENTITIES, "orders");
  }

  @Test
  void eitherKeySigns() {
    Map<String, String> params = SasTokens.account(ACCOUNT, KEY2, fields("r", "o"));
    authenticator
        .authenticate(SasTokens.request("GET", URL, params), ACCOUNT)
        .authorize(Operation.QUERY_ENTITIES, "orders");
  }

  @Test
  void everySignedFieldIsCoveredByTheSignature() {
    Map<String, String> f = fields("r", "o");
    f.put("st", "2026-03-01T00:00:00Z");
    f.put("sip", "127.0.0.1");
    f.put("spr", "https,http");
    Map<String, String> signed = SasTokens.account(ACCOUNT, KEY, f);
    assertAllowsOnly(
        authenticator.authenticate(SasTokens.request("GET", URL, signed), ACCOUNT), "orders", READ);

    Map<String, String> tampering =
        Map.of(
            "sv",
            "2018-03-28",
            "ss",
            "tq",
            "srt",
            "sco",
            "sp",
            "rw",
            "st",
            "2026-02-28T00:00:00Z",
            "se",
            "2026-03-03T00:00:00Z",
            "sip",
            "127.0.0.0-127.0.0.255",
            "spr",
            "https");
    tampering.forEach(
        (name, value) -> {
          Map<String, String> tampered = new LinkedHashMap<>(signed);
          tampered.put(name, value);
          assertFails(
              TableErrorCode.AUTHENTICATION_FAILED,
              () -> authenticator.authenticate(SasTokens.request("GET", URL, tampered), ACCOUNT));
        });
  }

  @Test
  void encryptionScopeIsSignedFromVersion20201206() {
    Map<String, String> f = fields("r", "o");
    f.put("sv", "2020-12-06");
    f.put("ses", "scope1");
    grant(f).authorize(Operation.QUERY_ENTITIES, "orders");

    Map<String, String> withoutScopeLine =
        new LinkedHashMap<>(SasTokens.account(ACCOUNT, KEY, fields("r", "o")));
    withoutScopeLine.put("sv", "2020-12-06");
    withoutScopeLine.put(
        "sig", TestSigner.sign(KEY, "acct\nr\nt\no\n\n2026-03-02T00:00:00Z\n\n\n2020-12-06\n"));
    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED,
        () -> authenticator.authenticate(SasTokens.request("GET", URL, withoutScopeLine), ACCOUNT));
  }

  @Test
  void missingMandatoryFieldFails() {
    for (String name : List.of("sv", "srt", "sp", "se")) {
      Map<String, String> params = SasTokens.account(ACCOUNT, KEY, fields("r", "o"));
      params.remove(name);
      assertFails(
          TableErrorCode.AUTHENTICATION_FAILED,
          () -> authenticator.authenticate(SasTokens.request("GET", URL, params), ACCOUNT));
    }
  }

  @Test
  void expiredOrNotYetValidTokenFails() {
    Map<String, String> expired = fields("r", "o");
    expired.put("se", "2026-03-01T11:59:59Z");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(expired));

    Map<String, String> expiresNow = fields("r", "o");
    expiresNow.put("se", "2026-03-01T12:00:00Z");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(expiresNow));

    Map<String, String> future = fields("r", "o");
    future.put("st", "2026-03-01T12:00:01Z");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(future));

    Map<String, String> started = fields("r", "o");
    started.put("st", "2026-03-01T12:00:00Z");
    assertAllowsOnly(grant(started), "orders", READ);
  }

  @Test
  void timesInEveryIsoFormAreRead() {
    for (String se :
        List.of(
            "2026-03-02",
            "2026-03-01T13:00Z",
            "2026-03-01T13:00:00.0000000Z",
            "2026-03-01T14:00:00+01:00",
            "2026-03-01T13:00:00")) {
      Map<String, String> f = fields("r", "o");
      f.put("se", se);
      assertAllowsOnly(grant(f), "orders", READ);
    }
    Map<String, String> garbled = fields("r", "o");
    garbled.put("se", "tomorrow");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(garbled));
  }

  @Test
  void expiryMustFollowStart() {
    Map<String, String> f = fields("r", "o");
    f.put("st", "2026-03-02T00:00:00Z");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
  }

  @Test
  void sourceAddressMustBeInTheSignedRange() {
    Map<String, String> f = fields("r", "o");
    f.put("sip", "10.0.0.5-10.0.1.20");
    Map<String, String> params = SasTokens.account(ACCOUNT, KEY, f);
    for (String inside : List.of("10.0.0.5", "10.0.0.255", "10.0.1.20", "::ffff:10.0.0.9")) {
      assertAllowsOnly(
          authenticator.authenticate(SasTokens.request("GET", URL, params).from(inside), ACCOUNT),
          "orders",
          READ);
    }
    for (String outside : List.of("10.0.0.4", "10.0.1.21", "127.0.0.1", "::1", "not-an-ip")) {
      assertFails(
          TableErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
          () ->
              authenticator.authenticate(
                  SasTokens.request("GET", URL, params).from(outside), ACCOUNT));
    }
  }

  @Test
  void singleAddressAndIpv6RangesWork() {
    Map<String, String> single = fields("r", "o");
    single.put("sip", "192.168.1.7");
    Map<String, String> params = SasTokens.account(ACCOUNT, KEY, single);
    assertAllowsOnly(
        authenticator.authenticate(
            SasTokens.request("GET", URL, params).from("192.168.1.7"), ACCOUNT),
        "orders",
        READ);
    assertFails(
        TableErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
        () ->
            authenticator.authenticate(
                SasTokens.request("GET", URL, params).from("192.168.1.8"), ACCOUNT));

    Map<String, String> v6 = fields("r", "o");
    v6.put("sip", "2001:db8::1-2001:db8::ff");
    Map<String, String> v6params = SasTokens.account(ACCOUNT, KEY, v6);
    assertAllowsOnly(
        authenticator.authenticate(
            SasTokens.request("GET", URL, v6params).from("2001:db8::10"), ACCOUNT),
        "orders",
        READ);
    assertFails(
        TableErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
        () ->
            authenticator.authenticate(
                SasTokens.request("GET", URL, v6params).from("2001:db8::100"), ACCOUNT));
  }

  @Test
  void unreadableAddressRangeFails() {
    Map<String, String> f = fields("r", "o");
    f.put("sip", "example.com");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
  }

  @Test
  void httpsOnlyTokenRefusesPlainHttp() {
    Map<String, String> f = fields("r", "o");
    f.put("spr", "https");
    Map<String, String> params = SasTokens.account(ACCOUNT, KEY, f);
    assertFails(
        TableErrorCode.AUTHORIZATION_PROTOCOL_MISMATCH,
        () -> authenticator.authenticate(SasTokens.request("GET", URL, params), ACCOUNT));
    assertAllowsOnly(
        authenticator.authenticate(SasTokens.request("GET", URL, params).secure(true), ACCOUNT),
        "orders",
        READ);

    f.put("spr", "https,http");
    assertAllowsOnly(grant(f), "orders", READ);
    f.put("spr", "ftp");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
  }

  @Test
  void signatureWithPlusDecodedAsSpaceStillMatches() {
    Map<String, String> params = SasTokens.account(ACCOUNT, KEY, fields("r", "o"));
    String sig = params.get("sig");
    params.put("sig", sig.replace('+', ' '));
    assertAllowsOnly(
        authenticator.authenticate(SasTokens.request("GET", URL, params), ACCOUNT), "orders", READ);
  }

  @Test
  void accountSasHasNoKeyRange() {
    assertThat(grant(fields("r", "o")).keyRange()).isEmpty();
  }
}
