package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.trestle.TableService;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.server.support.SdkHttp;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.server.support.TestTokens;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestCertificates;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The Java SDK with a custom {@link TokenCredential}, as an application using Entra ID has it. The
 * SDK sends Bearer tokens over HTTPS only: the server serves HTTPS with a certificate the test
 * makes.
 */
class BearerTokenSdkTest {
  @TempDir Path dir;
  private final TestTokens tokens = new TestTokens();
  private TrestleServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @DatabaseTest
  void theSdkWorksWithATokenCredentialAndGetsAzuresRefusals(TableService tables) throws Exception {
    String account = tables.accountName();
    TestCertificates.Issued certificate = TestCertificates.selfSigned("EC", "127.0.0.1");
    server =
        TrestleServer.builder(tables)
            .port(0)
            .account(account, TrestleServer.DEV_ACCOUNT_KEY)
            .tls(
                ServerCertificate.fromPem(
                    certificate.writeCertificate(dir.resolve("cert.pem")),
                    certificate.writeKeyPkcs8(dir.resolve("key.pem")),
                    null))
            .tokens(
                TokenAuthentication.jwks(tokens.jwkSet())
                    .withIssuer(TestTokens.ISSUER)
                    .withGrants(
                        TokenAuthentication.Grant.parse(
                            "oid=app " + account + " all\noid=reader " + account + " read")))
            .build()
            .start();
    // HTTPS, so tokens are accepted without allowing plain HTTP
    String endpoint = server.endpoint(account);
    assertThat(endpoint).startsWith("https://");
    X509Certificate trusted = certificate.certificate();

    TableServiceClient app = client(endpoint, trusted, tokens.token("app"));
    String name = ServerFixture.uniqueName("sdktok");
    TableClient table = app.createTable(name);
    table.createEntity(new TableEntity("p", "1").addProperty("V", "one"));
    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_MERGE, new TableEntity("p", "2")),
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("p", "3"))));
    assertThat(table.listEntities().stream().map(TableEntity::getRowKey))
        .containsExactly("1", "2", "3");
    assertThat(table.getEntity("p", "1").getProperty("V")).isEqualTo("one");

    TableClient reader = client(endpoint, trusted, tokens.token("reader")).getTableClient(name);
    assertThat(reader.listEntities().stream().count()).isEqualTo(3);
    assertThatThrownBy(() -> reader.deleteEntity("p", "1"))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> {
              assertThat(e.getResponse().getStatusCode()).isEqualTo(403);
              assertThat(e.getValue().getErrorCode().toString())
                  .isEqualTo("AuthorizationPermissionMismatch");
            });

    String expired =
        tokens.token("app", c -> c.expirationTime(TestTokens.at(java.time.Duration.ofHours(-1))));
    TableClient late = client(endpoint, trusted, expired).getTableClient(name);
    assertThatThrownBy(() -> late.getEntity("p", "1"))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> {
              assertThat(e.getResponse().getStatusCode()).isEqualTo(401);
              assertThat(e.getResponse().getHeaderValue("WWW-Authenticate"))
                  .contains("resource_id=https://storage.azure.com");
            });
    app.deleteTable(name);
  }

  private static TableServiceClient client(String endpoint, X509Certificate trusted, String token) {
    TokenCredential credential =
        request -> Mono.just(new AccessToken(token, OffsetDateTime.now().plusHours(1)));
    return new TableServiceClientBuilder()
        .endpoint(endpoint)
        .credential(credential)
        .httpClient(SdkHttp.trusting(trusted))
        .buildClient();
  }
}
