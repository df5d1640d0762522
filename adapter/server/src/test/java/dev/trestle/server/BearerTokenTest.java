package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;
import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.server.support.TestTokens;
import dev.trestle.testing.DatabaseTest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bearer tokens end to end over raw HTTP: what a valid token may do as its grants say, and each way
 * a token is refused, with Azure's status, code, detail and {@code WWW-Authenticate} challenge.
 * These servers allow tokens over plain HTTP explicitly; {@link BearerTokenSdkTest} runs over TLS.
 */
class BearerTokenTest extends ServerTest {
  private static final String CHALLENGE =
      "Bearer authorization_uri=https://login.microsoftonline.com/"
          + TestTokens.TENANT
          + "/oauth2/authorize resource_id=https://storage.azure.com";

  private final TestTokens tokens = new TestTokens();

  private ServerFixture start(TableService tables, TokenAuthentication tokenAuthentication) {
    String account = tables.accountName();
    fx =
        new ServerFixture(
            account,
            TrestleServer.builder(tables)
                .port(0)
                .account(account, TrestleServer.DEV_ACCOUNT_KEY)
                .tokens(tokenAuthentication));
    return fx;
  }

  /** Signed by the test's key, Entra ID's issuer for the test tenant, and four identities. */
  private ServerFixture startVerifying(TableService tables) {
    String account = tables.accountName();
    return start(
        tables,
        TokenAuthentication.jwks(tokens.jwkSet())
            .withIssuer(TestTokens.ISSUER)
            .withGrants(
                TokenAuthentication.Grant.parse(
                    String.join(
                        "\n",
                        "# admin may do everything, in this account only",
                        "oid=admin " + account + " all",
                        "oid=writer " + account + " read,write",
                        "appid=reporting-app * read",
                        "oid=elsewhere otheraccount all")))
            .withHttpAllowed(true));
  }

  private RawClient.Reply call(String token, String method, String path) {
    return call(token, method, path, null);
  }

  private RawClient.Reply call(String token, String method, String path, String json) {
    RawClient.Call call =
        fx.raw().call(method, path).unsigned().header("Authorization", "Bearer " + token);
    if (json != null) {
      call.json(json);
    }
    if (method.equals("DELETE") || method.equals("PUT") && path.contains("PartitionKey")) {
      call.header("If-Match", "*");
    }
    return call.send();
  }

  @DatabaseTest
  void aValidTokenRunsTableEntityAndBatchOperations(TableService tables) {
    startVerifying(tables);
    String admin = tokens.token("admin");
    String table = ServerFixture.uniqueName("tok");
    String entity = "/" + table + "(PartitionKey='p',RowKey='1')";
    assertThat(call(admin, "POST", "/Tables", "{\"TableName\":\"" + table + "\"}").status())
        .isEqualTo(201);
    assertThat(
            call(admin, "POST", "/" + table, "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}").status())
        .isEqualTo(201);
    assertThat(call(admin, "PUT", entity, "{\"V\":\"changed\"}").status()).isEqualTo(204);
    assertThat(call(admin, "GET", entity).body()).contains("\"V\":\"changed\"");
    assertThat(call(admin, "GET", "/" + table + "()").body()).contains("\"RowKey\":\"1\"");
    assertThat(call(admin, "GET", "/Tables").body()).contains(table);
    assertThat(call(admin, "DELETE", entity).status()).isEqualTo(204);
    assertThat(call(admin, "DELETE", "/Tables('" + table + "')").status()).isEqualTo(204);
  }

  @DatabaseTest
  void eachPermissionAllowsItsOperationsOnlyAndTheRestIsAPermissionMismatch(TableService tables) {
    startVerifying(tables);
    String table = fx.newTable("perm").getTableName();
    String entity = "/" + table + "(PartitionKey='p',RowKey='1')";
    String writer = tokens.token("writer");
    String reader = tokens.token("someone-else", claims -> claims.claim("appid", "reporting-app"));
    assertThat(
            call(writer, "POST", "/" + table, "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}").status())
        .isEqualTo(201);
    assertThat(call(writer, "GET", entity).status()).isEqualTo(200);
    assertError(call(writer, "DELETE", entity), 403, "AuthorizationPermissionMismatch");
    assertError(
        call(writer, "POST", "/Tables", "{\"TableName\":\"nottoday\"}"),
        403,
        "AuthorizationPermissionMismatch");
    // the reporting application reads through its appid grant, in any account
    assertThat(call(reader, "GET", "/" + table + "()").status()).isEqualTo(200);
    assertError(
        call(reader, "PUT", entity, "{\"V\":\"x\"}"), 403, "AuthorizationPermissionMismatch");
    assertThat(call(reader, "GET", "/" + table + "?comp=acl").status()).isEqualTo(403);
    // the entity is still there: nothing refused ran
    assertThat(call(writer, "GET", entity).status()).isEqualTo(200);
  }

  @DatabaseTest
  void aTokenNoGrantMatchesHereIsAuthenticatedButMayDoNothing(TableService tables) {
    startVerifying(tables);
    String stranger =
        tokens.token("elsewhere", claims -> claims.claim("appid", "another-application"));
    assertError(call(stranger, "GET", "/Tables"), 403, "AuthorizationPermissionMismatch");
  }

  @DatabaseTest
  void invalidTokensAreRefusedWithAzuresDetailAndChallenge(TableService tables) {
    startVerifying(tables);
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put(
        tokens.token(
            "admin",
            c ->
                c.expirationTime(TestTokens.at(Duration.ofHours(-1)))
                    .notBeforeTime(TestTokens.at(Duration.ofHours(-2)))),
        "Lifetime validation failed. The token is expired.");
    refused.put(
        tokens.token("admin", c -> c.notBeforeTime(TestTokens.at(Duration.ofMinutes(30)))),
        "Lifetime validation failed. The token is not yet valid.");
    refused.put(
        tokens.token("admin", c -> c.audience("https://vault.azure.net")),
        "Audience validation failed. Audience did not match.");
    refused.put(
        tokens.token("admin", c -> c.audience("https://otheraccount.table.core.windows.net")),
        "Audience validation failed. Audience did not match.");
    refused.put(
        tokens.token("admin", c -> c.issuer("https://sts.windows.net/another-tenant/")),
        "Issuer validation failed. Issuer did not match.");
    refused.put(new TestTokens().token("admin"), "Signature validation failed.");
    refused.put("not.a.token", "The token is malformed");
    // a token whose payload was changed after signing
    String[] parts = tokens.token("reader").split("\\.");
    refused.put(
        parts[0] + "." + tokens.token("admin").split("\\.")[1] + "." + parts[2],
        "Signature validation failed.");
    refused.forEach(
        (token, detail) -> {
          RawClient.Reply reply = call(token, "GET", "/Tables");
          assertError(reply, 401, "InvalidAuthenticationInfo");
          assertThat(reply.body())
              .contains("Please refer to the information in the www-authenticate header.")
              .contains(detail);
          assertThat(reply.header("WWW-Authenticate")).isEqualTo(CHALLENGE);
        });
    // XML operations carry the detail in AuthenticationErrorDetail
    RawClient.Reply xml =
        call(
            tokens.token("admin", c -> c.expirationTime(TestTokens.at(Duration.ofHours(-1)))),
            "GET",
            "/?restype=service&comp=properties");
    assertErrorCode(xml, 401, "InvalidAuthenticationInfo");
    assertThat(xml.body())
        .contains(
            "<AuthenticationErrorDetail>Lifetime validation failed. The token is expired."
                + "</AuthenticationErrorDetail>");
  }

  @DatabaseTest
  void theAccountsOwnAudiencesAreAccepted(TableService tables) {
    startVerifying(tables);
    String account = tables.accountName();
    for (String audience :
        List.of(
            "https://" + account + ".table.core.windows.net",
            "https://storage.azure.com/",
            fx.endpoint(),
            "e406a681-f3d4-42a8-90b6-c2b029497af1")) {
      assertThat(call(tokens.token("admin", c -> c.audience(audience)), "GET", "/Tables").status())
          .as(audience)
          .isEqualTo(200);
    }
  }

  @DatabaseTest
  void bearerTokensOverPlainHttpAreRefusedUnlessAllowed(TableService tables) {
    start(tables, TokenAuthentication.jwks(tokens.jwkSet()));
    RawClient.Reply reply = call(tokens.token("admin"), "GET", "/Tables");
    assertError(reply, 403, "AuthenticationFailed");
    assertThat(reply.body()).contains("Authentication scheme Bearer is not allowed with HTTP.");
    // Shared Key still works beside tokens
    assertThat(fx.raw().call("GET", "/Tables").send().status()).isEqualTo(200);
  }

  @DatabaseTest
  void basicModeChecksEverythingButTheSignature(TableService tables) {
    start(tables, TokenAuthentication.basic().withHttpAllowed(true));
    assertThat(call(new TestTokens().token("anyone"), "GET", "/Tables").status()).isEqualTo(200);
    String v2Issuer = "https://login.microsoftonline.com/" + TestTokens.TENANT + "/v2.0";
    assertThat(call(tokens.token("anyone", c -> c.issuer(v2Issuer)), "GET", "/Tables").status())
        .isEqualTo(200);
    RawClient.Reply foreign =
        call(tokens.token("anyone", c -> c.issuer("https://evil.example/")), "GET", "/Tables");
    assertError(foreign, 401, "InvalidAuthenticationInfo");
    // without a configured issuer the challenge names no tenant
    assertThat(foreign.header("WWW-Authenticate"))
        .isEqualTo(
            "Bearer authorization_uri=https://login.microsoftonline.com/common/oauth2/authorize"
                + " resource_id=https://storage.azure.com");
    assertError(
        call(
            tokens.token("anyone", c -> c.expirationTime(TestTokens.at(Duration.ofHours(-1)))),
            "GET",
            "/Tables"),
        401,
        "InvalidAuthenticationInfo");
  }

  @DatabaseTest
  void withoutTokenAuthenticationABearerHeaderIsAMalformedCredential(TableService tables) {
    start(tables);
    RawClient.Reply reply = call(tokens.token("admin"), "GET", "/Tables");
    assertThat(reply.status()).isIn(400, 403);
    assertThat(reply.header("WWW-Authenticate")).isNull();
  }
}
