package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceLogging;
import com.azure.data.tables.models.TableServiceMetrics;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableServiceRetentionPolicy;
import com.azure.data.tables.models.TableSignedIdentifier;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.testing.DatabaseTest;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Service properties, CORS driven by them, service stats and table ACLs. */
class ServicePropertiesTest extends ServerTest {

  @DatabaseTest
  void propertiesRoundTripAndOmittedElementsKeepTheirValue(TableService tables) {
    start(tables);
    TableServiceProperties properties =
        new TableServiceProperties()
            .setLogging(
                new TableServiceLogging()
                    .setAnalyticsVersion("1.0")
                    .setReadLogged(true)
                    .setWriteLogged(false)
                    .setDeleteLogged(true)
                    .setRetentionPolicy(
                        new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(7)))
            .setHourMetrics(
                new TableServiceMetrics()
                    .setVersion("1.0")
                    .setEnabled(true)
                    .setIncludeApis(false)
                    .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(false)))
            .setCorsRules(
                List.of(
                    new TableServiceCorsRule()
                        .setAllowedOrigins("http://a.example")
                        .setAllowedMethods("GET,PUT")
                        .setAllowedHeaders("x-ms-meta-*")
                        .setExposedHeaders("x-ms-request-id")
                        .setMaxAgeInSeconds(500)));
    fx.sdk().setProperties(properties);
    TableServiceProperties read = fx.sdk().getProperties();
    assertThat(read.getLogging().isReadLogged()).isTrue();
    assertThat(read.getLogging().isDeleteLogged()).isTrue();
    assertThat(read.getLogging().getRetentionPolicy().getDaysToRetain()).isEqualTo(7);
    assertThat(read.getHourMetrics().isEnabled()).isTrue();
    assertThat(read.getCorsRules())
        .singleElement()
        .satisfies(rule -> assertThat(rule.getAllowedOrigins()).isEqualTo("http://a.example"));

    fx.sdk().setProperties(new TableServiceProperties().setCorsRules(new ArrayList<>()));
    TableServiceProperties after = fx.sdk().getProperties();
    assertThat(after.getCorsRules() == null || after.getCorsRules().isEmpty()).isTrue();
    assertThat(after.getLogging().isReadLogged()).isTrue();
  }

  @DatabaseTest
  void corsRulesDrivePreflightAndActualResponses(TableService tables) {
    start(tables);
    RawClient.Reply closed =
        fx.raw()
            .call("OPTIONS", "/Tables")
            .unsigned()
            .header("Origin", "http://a.example")
            .header("Access-Control-Request-Method", "GET")
            .send();
    assertErrorCode(closed, 403, "CorsPreflightFailure");

    fx.sdk()
        .setProperties(
            new TableServiceProperties()
                .setCorsRules(
                    List.of(
                        new TableServiceCorsRule()
                            .setAllowedOrigins("http://a.example")
                            .setAllowedMethods("GET,POST")
                            .setAllowedHeaders("x-ms-*")
                            .setExposedHeaders("x-ms-request-id")
                            .setMaxAgeInSeconds(60))));
    RawClient.Reply preflight =
        fx.raw()
            .call("OPTIONS", "/Tables")
            .unsigned()
            .header("Origin", "http://a.example")
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "x-ms-version")
            .send();
    assertThat(preflight.status()).isEqualTo(200);
    assertThat(preflight.header("Access-Control-Allow-Origin")).isEqualTo("http://a.example");
    assertThat(preflight.header("Access-Control-Max-Age")).isEqualTo("60");

    RawClient.Reply otherOrigin =
        fx.raw()
            .call("OPTIONS", "/Tables")
            .unsigned()
            .header("Origin", "http://b.example")
            .header("Access-Control-Request-Method", "GET")
            .send();
    assertThat(otherOrigin.status()).isEqualTo(403);

    RawClient.Reply actual =
        fx.raw().call("GET", "/Tables").header("Origin", "http://a.example").send();
    assertThat(actual.status()).isEqualTo(200);
    assertThat(actual.header("Access-Control-Allow-Origin")).isEqualTo("http://a.example");
    assertThat(actual.header("Access-Control-Expose-Headers")).contains("x-ms-request-id");
  }

  /** A prefix reaches the headers every answer carries, not only the operation's own. */
  @DatabaseTest
  void exposedPrefixesCoverTheServiceHeaders(TableService tables) {
    start(tables);
    fx.sdk()
        .setProperties(
            new TableServiceProperties()
                .setCorsRules(
                    List.of(
                        new TableServiceCorsRule()
                            .setAllowedOrigins("*")
                            .setAllowedMethods("GET")
                            .setAllowedHeaders("")
                            .setExposedHeaders("x-ms-*")
                            .setMaxAgeInSeconds(60))));
    RawClient.Reply actual =
        fx.raw()
            .call("GET", "/Tables")
            .header("Origin", "http://a.example")
            .header("x-ms-client-request-id", "c1")
            .send();
    assertThat(actual.status()).isEqualTo(200);
    assertThat(actual.header("Access-Control-Expose-Headers").split(","))
        .contains("x-ms-request-id", "x-ms-version", "x-ms-client-request-id");
  }

  @DatabaseTest
  void theSecondaryEndpointServesStatsAndReadsButNoWrites(TableService tables) {
    start(tables);
    fx.newTable("secondary").createEntity(new TableEntity("p", "r"));
    RawClient secondary =
        new RawClient(fx.endpoint() + "-secondary", fx.account(), TrestleServer.DEV_ACCOUNT_KEY);
    RawClient.Reply stats = secondary.call("GET", "/?restype=service&comp=stats").send();
    assertThat(stats.status()).as(stats.body()).isEqualTo(200);
    assertThat(stats.body()).contains("<Status>live</Status>");
    // the Python SDK's request from a path-style connection string
    RawClient.Reply pythonStats =
        secondary
            .call("GET", "/" + fx.account() + "/?restype=service&comp=stats")
            .signedAs("/" + fx.account() + "/")
            .send();
    assertThat(pythonStats.status()).as(pythonStats.body()).isEqualTo(200);
    assertThat(pythonStats.body()).contains("<Status>live</Status>");
    RawClient.Reply listed = secondary.call("GET", "/Tables").send();
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.body()).contains(fx.endpoint() + "-secondary/$metadata#Tables");
    RawClient.Reply write =
        secondary.call("POST", "/Tables").json("{\"TableName\":\"nowrite\"}").send();
    assertErrorCode(write, 403, "AuthorizationFailure");
    RawClient.Reply unknown =
        new RawClient(
                fx.endpoint() + "x-secondary", fx.account() + "x", TrestleServer.DEV_ACCOUNT_KEY)
            .call("GET", "/Tables")
            .send();
    assertThat(unknown.status()).isEqualTo(403);
  }

  @DatabaseTest
  void statsAnswerLiveOnTheSecondaryAndAreRefusedOnThePrimaryAsAzureDoes(TableService tables) {
    start(tables);
    TableServiceClient secondary =
        new TableServiceClientBuilder()
            .endpoint(fx.endpoint() + "-secondary")
            .credential(new AzureNamedKeyCredential(fx.account(), TrestleServer.DEV_ACCOUNT_KEY))
            .buildClient();
    assertThat(secondary.getStatistics().getGeoReplication().getStatus().toString())
        .isEqualTo("live");
    RawClient.Reply stats = fx.raw().call("GET", "?restype=service&comp=stats").send();
    assertErrorCode(stats, 400, "InvalidQueryParameterValue");
    RawClient.Reply withSlash = fx.raw().call("GET", "/?restype=service&comp=properties").send();
    assertThat(withSlash.status()).isEqualTo(200);
    assertThat(withSlash.header("Content-Type")).startsWith("application/xml");
  }

  @DatabaseTest
  void accessPoliciesRoundTripAndAreLimitedToFive(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("acl");
    OffsetDateTime start = OffsetDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    table.setAccessPolicies(
        List.of(
            new TableSignedIdentifier("read-only")
                .setAccessPolicy(
                    new TableAccessPolicy()
                        .setStartsOn(start)
                        .setExpiresOn(start.plusDays(1))
                        .setPermissions("r"))));
    List<TableSignedIdentifier> read = table.getAccessPolicies().getIdentifiers();
    assertThat(read)
        .singleElement()
        .satisfies(
            id -> {
              assertThat(id.getId()).isEqualTo("read-only");
              assertThat(id.getAccessPolicy().getPermissions()).isEqualTo("r");
              assertThat(id.getAccessPolicy().getStartsOn().toInstant())
                  .isEqualTo(start.toInstant());
            });
    List<TableSignedIdentifier> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(
          new TableSignedIdentifier("id" + i)
              .setAccessPolicy(new TableAccessPolicy().setPermissions("r")));
    }
    assertThatThrownBy(() -> table.setAccessPolicies(six))
        .isInstanceOfSatisfying(
            HttpResponseException.class,
            e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(400));
    table.setAccessPolicies(List.of());
    List<TableSignedIdentifier> cleared = table.getAccessPolicies().getIdentifiers();
    assertThat(cleared == null || cleared.isEmpty()).isTrue();

    RawClient.Reply missing = fx.raw().call("GET", "/nosuchtable1?comp=acl").send();
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.header("Content-Type")).startsWith("application/xml");
    assertThat(missing.body()).contains("<m:code>TableNotFound</m:code>");
  }
}
