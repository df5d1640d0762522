package dev.trestle.server.auth.internal;

import static dev.trestle.server.auth.internal.GrantAssertions.READ;
import static dev.trestle.server.auth.internal.GrantAssertions.assertAllowsOnly;
import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.AccessPolicy;
import dev.trestle.TableErrorCode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class TableSasTest {
  static final String ACCOUNT = "acct";
  static final String KEY = "a2V5LW9uZS1mb3ItdGVzdHMtb25seQ==";
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  static final String URL = "http://127.0.0.1:10002/acct/Orders()";

  final List<AccessPolicy> policies = new ArrayList<>();
  final RequestAuthenticator authenticator =
      new RequestAuthenticator(
          Map.of(ACCOUNT, List.of(KEY)),
          (account, table) ->
              account.equals(ACCOUNT) && table.equalsIgnoreCase("orders")
                  ? List.copyOf(policies)
                  : List.of(),
          Clock.fixed(NOW, ZoneOffset.UTC),
          false);

  static Map<String, String> fields(String sp) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("sv", "2019-02-02");
    f.put("tn", "Orders");
    if (sp != null) {
      f.put("sp", sp);
      f.put("se", "2026-03-02T00:00:00Z");
    }
    return f;
  }

  Grant grant(Map<String, String> fields) {
    return authenticator.authenticate(
        SasTokens.request("GET", URL, SasTokens.table(ACCOUNT, KEY, fields, true)), ACCOUNT);
  }

  @ParameterizedTest
  @CsvSource({
    "QUERY_ENTITIES, r",
    "GET_ENTITY, r",
    "INSERT_ENTITY, a",
    "UPDATE_ENTITY, u",
    "MERGE_ENTITY, u",
    "INSERT_OR_REPLACE_ENTITY, au",
    "INSERT_OR_MERGE_ENTITY, au",
    "DELETE_ENTITY, d"
  })
  void entityOperationNeedsItsPermission(Operation operation, String permission) {
    grant(fields(permission)).authorize(operation, "Orders");
    grant(fields(permission)).authorizeEntity(operation, "Orders", "p", "r");

    String others = "raud".replaceAll("[" + permission + "]", "");
    assertFails(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        () -> grant(fields(others)).authorize(operation, "Orders"));
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
        () -> grant(fields(permission)).authorize(operation, "Orders"));
  }

  @ParameterizedTest
  @EnumSource(
      value = Operation.class,
      names = {
        "QUERY_TABLES",
        "CREATE_TABLE",
        "DELETE_TABLE",
        "GET_TABLE_ACL",
        "SET_TABLE_ACL",
        "GET_SERVICE_PROPERTIES",
        "SET_SERVICE_PROPERTIES",
        "GET_SERVICE_STATS"
      })
  void tableSasCannotRunTableOrServiceOperations(Operation operation) {
    assertFails(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        () -> grant(fields("raud")).authorize(operation, "Orders"));
  }

  @Test
  void tableSasIsForItsOwnTableOnlyWhateverTheCase() {
    Grant grant = grant(fields("raud"));
    grant.authorize(Operation.QUERY_ENTITIES, "orders");
    grant.authorize(Operation.QUERY_ENTITIES, "ORDERS");
    assertFails(
        TableErrorCode.AUTHORIZATION_FAILURE,
        () -> grant.authorize(Operation.QUERY_ENTITIES, "Invoices"));
    assertFails(
        TableErrorCode.AUTHORIZATION_FAILURE,
        () -> grant.authorizeEntity(Operation.DELETE_ENTITY, "Invoices", "p", "r"));
  }

  @Test
  void canonicalResourceIsAcceptedLowerCasedOrAsGiven() {
    Map<String, String> asGiven = SasTokens.table(ACCOUNT, KEY, fields("r"), false);
    authenticator
        .authenticate(SasTokens.request("GET", URL, asGiven), ACCOUNT)
        .authorize(Operation.QUERY_ENTITIES, "Orders");
  }

  @Test
  void everySignedFieldIsCoveredByTheSignature() {
    Map<String, String> f = fields("r");
    f.put("st", "2026-03-01T00:00:00Z");
    f.put("spk", "a");
    f.put("srk", "1");
    f.put("epk", "z");
    f.put("erk", "9");
    Map<String, String> signed = SasTokens.table(ACCOUNT, KEY, f, true);
    assertAllowsOnly(
        authenticator.authenticate(SasTokens.request("GET", URL, signed), ACCOUNT), "Orders", READ);

    Map<String, String> tampering = new LinkedHashMap<>();
    tampering.put("sp", "raud");
    tampering.put("st", "2026-02-01T00:00:00Z");
    tampering.put("se", "2027-01-01T00:00:00Z");
    tampering.put("tn", "Invoices");
    tampering.put("sip", "127.0.0.1");
    tampering.put("spr", "https,http");
    tampering.put("sv", "2018-03-28");
    tampering.put("spk", "0");
    tampering.put("srk", "0");
    tampering.put("epk", "zz");
    tampering.put("erk", "99");
    tampering.forEach(
        (name, value) -> {
          Map<String, String> tampered = new LinkedHashMap<>(signed);
          tampered.put(name, value);
          assertThatThrownBy(
                  () ->
                      authenticator.authenticate(SasTokens.request("GET", URL, tampered), ACCOUNT))
              .as(name)
              .isInstanceOf(AuthenticationFailedException.class);
        });
  }

  @Test
  void permissionsAndExpiryAreMandatoryWithoutStoredPolicy() {
    Map<String, String> noPermissions = fields("r");
    noPermissions.remove("sp");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(noPermissions));
    Map<String, String> noExpiry = fields("r");
    noExpiry.remove("se");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(noExpiry));
  }

  @Test
  void expiredAndNotYetValidTokensFail() {
    Map<String, String> expired = fields("r");
    expired.put("se", "2026-03-01T11:00:00Z");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(expired));
    Map<String, String> early = fields("r");
    early.put("st", "2026-03-01T13:00:00Z");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(early));
  }

  @Test
  void addressAndProtocolAreChecked() {
    Map<String, String> f = fields("r");
    f.put("sip", "10.1.0.0-10.1.255.255");
    f.put("spr", "https");
    Map<String, String> params = SasTokens.table(ACCOUNT, KEY, f, true);
    assertAllowsOnly(
        authenticator.authenticate(
            SasTokens.request("GET", URL, params).from("10.1.2.3").secure(true), ACCOUNT),
        "Orders",
        READ);
    assertFails(
        TableErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
        () ->
            authenticator.authenticate(
                SasTokens.request("GET", URL, params).from("10.2.0.1").secure(true), ACCOUNT));
    assertFails(
        TableErrorCode.AUTHORIZATION_PROTOCOL_MISMATCH,
        () ->
            authenticator.authenticate(
                SasTokens.request("GET", URL, params).from("10.1.2.3"), ACCOUNT));
  }

  @Test
  void keyRangeLimitsEntityAccessAndIsExposedForQueries() {
    Map<String, String> f = fields("raud");
    f.put("spk", "b");
    f.put("srk", "5");
    f.put("epk", "d");
    f.put("erk", "5");
    Grant grant = grant(f);

    assertThat(grant.keyRange()).contains(new KeyRange("b", "5", "d", "5"));
    grant.authorizeEntity(Operation.INSERT_ENTITY, "Orders", "b", "5");
    grant.authorizeEntity(Operation.INSERT_ENTITY, "Orders", "c", "0");
    grant.authorizeEntity(Operation.GET_ENTITY, "Orders", "d", "5");
    for (String[] keys : new String[][] {{"b", "4"}, {"a", "9"}, {"d", "6"}, {"e", ""}}) {
      assertFails(
          TableErrorCode.AUTHORIZATION_FAILURE,
          () -> grant.authorizeEntity(Operation.INSERT_ENTITY, "Orders", keys[0], keys[1]));
    }
  }

  @Test
  void openEndedKeyRange() {
    Map<String, String> f = fields("r");
    f.put("spk", "m");
    Grant grant = grant(f);
    assertThat(grant.keyRange()).contains(new KeyRange("m", null, null, null));
    grant.authorizeEntity(Operation.GET_ENTITY, "Orders", "zzz", "");
    assertFails(
        TableErrorCode.AUTHORIZATION_FAILURE,
        () -> grant.authorizeEntity(Operation.GET_ENTITY, "Orders", "l", "x"));
    assertThat(grant(fields("r")).keyRange()).isEmpty();
  }

  @Test
  void rowKeyBoundNeedsItsPartitionKeyBound() {
    Map<String, String> startRowOnly = fields("r");
    startRowOnly.put("srk", "1");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(startRowOnly));
    Map<String, String> endRowOnly = fields("r");
    endRowOnly.put("erk", "1");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(endRowOnly));
  }

  @Test
  void storedPolicySuppliesPermissionsAndTimes() {
    policies.add(
        new AccessPolicy(
            "readers",
            Instant.parse("2026-03-01T00:00:00Z"),
            Instant.parse("2026-03-02T00:00:00Z"),
            "r"));
    Map<String, String> f = fields(null);
    f.put("si", "readers");
    Grant grant = grant(f);

    grant.authorize(Operation.QUERY_ENTITIES, "Orders");
    assertFails(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        () -> grant.authorize(Operation.INSERT_ENTITY, "Orders"));
  }

  @Test
  void urlMaySupplyWhatThePolicyLeavesOpen() {
    policies.add(new AccessPolicy("open", null, null, null));
    Map<String, String> f = fields("a");
    f.put("si", "open");
    grant(f).authorize(Operation.INSERT_ENTITY, "Orders");
  }

  @Test
  void fieldGivenBothInUrlAndPolicyFails() {
    policies.add(
        new AccessPolicy(
            "full",
            Instant.parse("2026-03-01T00:00:00Z"),
            Instant.parse("2026-03-02T00:00:00Z"),
            "raud"));
    for (String field : List.of("sp", "st", "se")) {
      Map<String, String> f = fields(null);
      f.put("si", "full");
      f.put(field, field.equals("sp") ? "r" : "2026-03-01T06:00:00Z");
      assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
    }
  }

  @Test
  void policyWithoutExpiryOrPermissionsNeedsThemInTheUrl() {
    policies.add(new AccessPolicy("bare", null, null, null));
    Map<String, String> f = fields(null);
    f.put("si", "bare");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
  }

  @Test
  void expiredOrFuturePolicyFails() {
    policies.add(new AccessPolicy("old", null, Instant.parse("2026-02-01T00:00:00Z"), "r"));
    policies.add(
        new AccessPolicy(
            "later",
            Instant.parse("2026-04-01T00:00:00Z"),
            Instant.parse("2026-05-01T00:00:00Z"),
            "r"));
    for (String id : List.of("old", "later")) {
      Map<String, String> f = fields(null);
      f.put("si", id);
      assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
    }
  }

  @Test
  void unknownOrRevokedPolicyFails() {
    policies.add(new AccessPolicy("readers", null, Instant.parse("2026-03-02T00:00:00Z"), "r"));
    Map<String, String> f = fields(null);
    f.put("si", "writers");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));

    f.put("si", "readers");
    assertAllowsOnly(grant(f), "Orders", READ);
    policies.clear();
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
  }

  @Test
  void policyIdIsCaseSensitive() {
    policies.add(new AccessPolicy("Readers", null, Instant.parse("2026-03-02T00:00:00Z"), "r"));
    Map<String, String> f = fields(null);
    f.put("si", "readers");
    assertFails(TableErrorCode.AUTHENTICATION_FAILED, () -> grant(f));
  }

  @Test
  void missingTableNameOrVersionFails() {
    for (String name : List.of("tn", "sv")) {
      Map<String, String> params = SasTokens.table(ACCOUNT, KEY, fields("r"), true);
      params.remove(name);
      assertFails(
          TableErrorCode.AUTHENTICATION_FAILED,
          () -> authenticator.authenticate(SasTokens.request("GET", URL, params), ACCOUNT));
    }
  }
}
