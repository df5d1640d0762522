package dev.trestle.server.auth.internal;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.trestle.TableErrorCode;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests signed by the official Java SDK (Shared Key Lite, path-style endpoint) authenticate, and
 * tampered ones do not.
 */
class SdkSharedKeyTest {
  static final String ACCOUNT = "devstoreaccount1";
  static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  static final SdkCapture CAPTURE = new SdkCapture();
  static final TableServiceClient SERVICE =
      new TableServiceClientBuilder()
          .endpoint("http://127.0.0.1:10002/" + ACCOUNT)
          .credential(new AzureNamedKeyCredential(ACCOUNT, KEY))
          .httpClient(CAPTURE)
          .buildClient();
  static final TableClient TABLE = SERVICE.getTableClient("Orders");

  final RequestAuthenticator authenticator =
      new RequestAuthenticator(
          Map.of(ACCOUNT, List.of(KEY)), (account, table) -> List.of(), Clock.systemUTC(), false);

  static Stream<Arguments> sdkCalls() {
    TableEntity odd = new TableEntity("p 'q'/é", "r#1 ü+x");
    return Stream.of(
        Arguments.of("create table", (Runnable) () -> SERVICE.createTable("Orders")),
        Arguments.of("delete table", (Runnable) () -> SERVICE.deleteTable("Orders")),
        Arguments.of("list tables", (Runnable) () -> SERVICE.listTables().iterator().hasNext()),
        Arguments.of("get properties", (Runnable) SERVICE::getProperties),
        Arguments.of(
            "set properties", (Runnable) () -> SERVICE.setProperties(new TableServiceProperties())),
        Arguments.of("get stats", (Runnable) SERVICE::getStatistics),
        Arguments.of("get acl", (Runnable) TABLE::getAccessPolicies),
        Arguments.of(
            "set acl",
            (Runnable)
                () ->
                    TABLE.setAccessPolicies(
                        List.of(
                            new TableSignedIdentifier("id1")
                                .setAccessPolicy(
                                    new TableAccessPolicy()
                                        .setPermissions("r")
                                        .setExpiresOn(
                                            OffsetDateTime.parse("2030-01-01T00:00:00Z")))))),
        Arguments.of(
            "insert",
            (Runnable) () -> TABLE.createEntity(new TableEntity("p", "r").addProperty("n", 1))),
        Arguments.of("insert odd keys", (Runnable) () -> TABLE.createEntity(odd)),
        Arguments.of("get odd keys", (Runnable) () -> TABLE.getEntity("p 'q'/é", "r#1 ü+x")),
        Arguments.of(
            "merge", (Runnable) () -> TABLE.updateEntity(odd, TableEntityUpdateMode.MERGE)),
        Arguments.of("upsert", (Runnable) () -> TABLE.upsertEntity(odd)),
        Arguments.of("delete entity", (Runnable) () -> TABLE.deleteEntity("p", "r")),
        Arguments.of(
            "query",
            (Runnable)
                () ->
                    TABLE
                        .listEntities(
                            new ListEntitiesOptions().setFilter("PartitionKey eq 'a b'").setTop(5),
                            null,
                            null)
                        .iterator()
                        .hasNext()),
        Arguments.of(
            "batch",
            (Runnable)
                () ->
                    TABLE.submitTransaction(
                        List.of(
                            new TableTransactionAction(
                                TableTransactionActionType.CREATE, new TableEntity("p", "r1")),
                            new TableTransactionAction(
                                TableTransactionActionType.DELETE, new TableEntity("p", "r2"))))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sdkCalls")
  void sdkSignedRequestIsAccepted(String name, Runnable call) {
    FakeRequest request = CAPTURE.capture(call);

    assertThat(request.header("Authorization")).startsWith("SharedKeyLite " + ACCOUNT + ":");
    assertThat(authenticator.authenticate(request, ACCOUNT).keyRange()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sdkCalls")
  void sdkSignedRequestWithAnotherPathIsRejected(String name, Runnable call) {
    FakeRequest request = CAPTURE.capture(call);
    request.path(request.rawPath() + "x");

    assertFails(
        TableErrorCode.AUTHENTICATION_FAILED, () -> authenticator.authenticate(request, ACCOUNT));
  }
}
