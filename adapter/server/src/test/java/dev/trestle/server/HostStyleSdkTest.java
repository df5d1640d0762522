package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceGeoReplicationStatus;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import dev.trestle.TableService;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.server.support.SdkHttp;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.server.support.TestTokens;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestCertificates;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The Java SDK addressing the account in the host name, as it addresses Azure: connection strings
 * with {@code AccountName} and {@code EndpointSuffix}, {@code https://account.table.suffix}
 * endpoints, the secondary host for service statistics, SAS clients (whose signatures name the
 * account the SDK reads from the host) and Bearer tokens over HTTPS. Every name resolves to
 * 127.0.0.1 in the SDK's HTTP client; the suffix carries the test server's port.
 */
class HostStyleSdkTest {
  private static final String SUFFIX = "table.trestle.test";

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
  void theSdkWorksOnHostStyleUrlsOverHttps(TableService tables) {
    String account = tables.accountName();
    TestCertificates.Issued certificate = TestCertificates.selfSigned("EC", "*." + SUFFIX);
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
                    .withGrants(TokenAuthentication.Grant.parse("oid=app " + account + " all")))
            .build()
            .start();
    HttpClient http = SdkHttp.trusting(certificate.certificate());
    String endpoint = "https://" + account + "." + SUFFIX + ":" + server.port();

    // the port rides in the suffix: the SDK builds https://{account}.table.{suffix}
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(
                "DefaultEndpointsProtocol=https;AccountName="
                    + account
                    + ";AccountKey="
                    + TrestleServer.DEV_ACCOUNT_KEY
                    + ";EndpointSuffix=trestle.test:"
                    + server.port())
            .httpClient(http)
            .buildClient();
    assertThat(service.getServiceEndpoint()).isEqualTo(endpoint);

    String name = ServerFixture.uniqueName("hostsdk");
    TableClient table = service.createTable(name);
    table.createEntity(new TableEntity("p", "00").addProperty("N", 0));
    table.submitTransaction(
        IntStream.rangeClosed(1, 20)
            .mapToObj(
                i ->
                    new TableTransactionAction(
                        TableTransactionActionType.UPSERT_MERGE,
                        new TableEntity("p", String.format("%02d", i)).addProperty("N", i)))
            .toList());
    assertThat(
            table
                .listEntities(new ListEntitiesOptions().setFilter("N ge 5").setTop(4), null, null)
                .stream()
                .map(TableEntity::getRowKey))
        .hasSize(16)
        .startsWith("05", "06");
    TableEntity read = table.getEntity("p", "03");
    table.updateEntityWithResponse(
        read.addProperty("M", "x"), TableEntityUpdateMode.MERGE, true, null, null);
    assertThat(table.getEntity("p", "03").getProperty("M")).isEqualTo("x");
    table.deleteEntity("p", "00");
    assertThat(
            service
                .listTables(
                    new ListTablesOptions().setFilter("TableName eq '" + name + "'"), null, null)
                .stream())
        .hasSize(1);
    // service properties live at the host's root: PUT and GET /?restype=service&comp=properties
    TableServiceProperties properties = service.getProperties();
    properties.setCorsRules(
        List.of(
            new TableServiceCorsRule()
                .setAllowedOrigins("https://app.trestle.test")
                .setAllowedMethods("GET")
                .setAllowedHeaders("*")
                .setExposedHeaders("*")
                .setMaxAgeInSeconds(60)));
    service.setProperties(properties);
    assertThat(service.getProperties().getCorsRules())
        .singleElement()
        .extracting(TableServiceCorsRule::getAllowedOrigins)
        .isEqualTo("https://app.trestle.test");

    // Get Table Service Stats goes to the secondary host, signed for the account
    TableServiceClient secondary =
        new TableServiceClientBuilder()
            .endpoint("https://" + account + "-secondary." + SUFFIX + ":" + server.port())
            .credential(new AzureNamedKeyCredential(account, TrestleServer.DEV_ACCOUNT_KEY))
            .httpClient(http)
            .buildClient();
    assertThat(secondary.getStatistics().getGeoReplication().getStatus())
        .isEqualTo(TableServiceGeoReplicationStatus.LIVE);

    // a table SAS made by the SDK's own TableClient signs for the account named by the host
    String tableSas =
        service
            .getTableClient(name)
            .generateSas(
                new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("raud")));
    TableClient sasTable =
        new TableClientBuilder()
            .endpoint(endpoint)
            .tableName(name)
            .sasToken(tableSas)
            .httpClient(http)
            .buildClient();
    sasTable.createEntity(new TableEntity("q", "sas"));
    assertThat(sasTable.getEntity("q", "sas").getRowKey()).isEqualTo("sas");
    TableClient fromSasConnectionString =
        new TableClientBuilder()
            .connectionString("TableEndpoint=" + endpoint + ";SharedAccessSignature=" + tableSas)
            .tableName(name)
            .httpClient(http)
            .buildClient();
    assertThat(fromSasConnectionString.listEntities().stream()).hasSize(21);

    String accountSas =
        service.generateAccountSas(
            new TableAccountSasSignatureValues(
                OffsetDateTime.now().plusHours(1),
                TableAccountSasPermission.parse("rl"),
                TableAccountSasService.parse("t"),
                TableAccountSasResourceType.parse("sco")));
    assertThat(
            new TableServiceClientBuilder()
                    .endpoint(endpoint)
                    .sasToken(accountSas)
                    .httpClient(http)
                    .buildClient()
                    .listTables()
                    .stream()
                    .map(t -> t.getName()))
        .contains(name);

    // a Bearer token for the account's host-style URL, over HTTPS: no --oauth-allow-http needed
    String token = tokens.token("app", claims -> claims.audience(endpoint));
    TokenCredential credential =
        request -> Mono.just(new AccessToken(token, OffsetDateTime.now().plusHours(1)));
    TableClient withToken =
        new TableClientBuilder()
            .endpoint(endpoint)
            .tableName(name)
            .credential(credential)
            .httpClient(http)
            .buildClient();
    withToken.createEntity(new TableEntity("t", "token"));
    assertThat(withToken.getEntity("t", "token").getPartitionKey()).isEqualTo("t");

    service.deleteTable(name);
  }

  @DatabaseTest
  void theSdkWorksOnAzuritesLocalhostNamesOverHttp(TableService tables) {
    String account = tables.accountName();
    server =
        TrestleServer.builder(tables)
            .port(0)
            .account(account, TrestleServer.DEV_ACCOUNT_KEY)
            .build()
            .start();
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(
                "DefaultEndpointsProtocol=http;AccountName="
                    + account
                    + ";AccountKey="
                    + TrestleServer.DEV_ACCOUNT_KEY
                    + ";TableEndpoint=http://"
                    + account
                    + ".localhost:"
                    + server.port()
                    + ";")
            .httpClient(SdkHttp.loopback())
            .buildClient();
    String name = ServerFixture.uniqueName("local");
    TableClient table = service.createTable(name);
    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("p", "1")),
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("p", "2"))));
    assertThat(table.listEntities().stream()).hasSize(2);
    assertThat(table.getAccountName()).isEqualTo(account);
    service.deleteTable(name);
  }
}
