package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.trestle.TableService;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.server.support.TestTokens;
import dev.trestle.testing.DatabaseTest;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The Java SDK with a custom {@link TokenCredential}, as an application using Entra ID has it. The
 * SDK sends Bearer tokens over HTTPS only, so the test adds a TLS connector with a self-signed
 * certificate of its own to the server's Jetty (the server's own TLS settings are another change).
 */
class BearerTokenSdkTest {
  private static final String PASSWORD = "changeit";

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
    Path keyStore = selfSignedKeyStore();
    AtomicReference<Handler> api = new AtomicReference<>();
    server =
        TrestleServer.builder(tables)
            .port(0)
            .account(account, TrestleServer.DEV_ACCOUNT_KEY)
            .tokens(
                TokenAuthentication.jwks(tokens.jwkSet())
                    .withIssuer(TestTokens.ISSUER)
                    .withGrants(
                        TokenAuthentication.Grant.parse(
                            "oid=app " + account + " all\noid=reader " + account + " read")))
            .wrapHandler(
                handler -> {
                  api.set(handler);
                  return handler;
                })
            .build();
    Server jetty = api.get().getServer();
    int tlsPort = addTlsConnector(jetty, keyStore);
    server.start();
    String endpoint = "https://127.0.0.1:" + tlsPort + "/" + account;
    X509Certificate certificate = certificate(keyStore);

    TableServiceClient app = client(endpoint, certificate, tokens.token("app"));
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

    TableClient reader = client(endpoint, certificate, tokens.token("reader")).getTableClient(name);
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
    TableClient late = client(endpoint, certificate, expired).getTableClient(name);
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

  private static TableServiceClient client(String endpoint, X509Certificate trusted, String token)
      throws IOException {
    TokenCredential credential =
        request -> Mono.just(new AccessToken(token, OffsetDateTime.now().plusHours(1)));
    var netty =
        reactor.netty.http.client.HttpClient.create()
            .secure(
                ssl -> {
                  try {
                    ssl.sslContext(SslContextBuilder.forClient().trustManager(trusted).build());
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                });
    return new TableServiceClientBuilder()
        .endpoint(endpoint)
        .credential(credential)
        .httpClient(new NettyAsyncHttpClientBuilder(netty).build())
        .buildClient();
  }

  private static int addTlsConnector(Server jetty, Path keyStore) throws Exception {
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStorePath(keyStore.toString());
    tls.setKeyStorePassword(PASSWORD);
    tls.setKeyStoreType("PKCS12");
    HttpConfiguration https = new HttpConfiguration();
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    secure.setSniHostCheck(false); // the certificate names 127.0.0.1 and localhost
    https.addCustomizer(secure);
    ServerConnector connector =
        new ServerConnector(
            jetty, new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(https));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    connector.open();
    return connector.getLocalPort();
  }

  private Path selfSignedKeyStore() throws Exception {
    Path store = dir.resolve("server.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "trestle",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor()).as(output).isZero();
    return store;
  }

  private static X509Certificate certificate(Path store) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD.toCharArray());
    }
    return (X509Certificate) keys.getCertificate("trestle");
  }
}
