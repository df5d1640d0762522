package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.data.tables.sas.TableSasSignatureValues;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerCluster;
import dev.trestle.server.support.ServerCluster.Deployment;
import dev.trestle.server.support.ServerFixture;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What one server changes, every other server sharing the database applies: CORS rules once their
 * {@linkplain TrestleServer.Builder#settingsRefresh refresh} is over, everything else (stored
 * access policies, tables) on the next request.
 */
class SharedStateAcrossServersTest {
  private static final Duration REFRESH = Duration.ofMillis(700);

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(
      value = Deployment.class,
      names = {"H2", "POSTGRESQL"})
  void aCorsRuleSetOrRemovedThroughOneServerIsEnforcedByAnotherWithinTheRefresh(
      Deployment deployment) throws Exception {
    try (ServerCluster cluster =
        ServerCluster.start(deployment, 2, 2, builder -> builder.settingsRefresh(REFRESH))) {
      ServerFixture a = cluster.server(0);
      ServerFixture b = cluster.server(1);
      assertErrorCode(preflight(b), 403, "CorsPreflightFailure");

      a.sdk()
          .setProperties(
              new TableServiceProperties()
                  .setCorsRules(
                      List.of(
                          new TableServiceCorsRule()
                              .setAllowedOrigins("http://app.example")
                              .setAllowedMethods("GET,POST")
                              .setAllowedHeaders("x-ms-*")
                              .setExposedHeaders("x-ms-request-id")
                              .setMaxAgeInSeconds(60))));
      assertThat(preflight(a).status()).as("the server it was set through, at once").isEqualTo(200);
      Thread.sleep(REFRESH.toMillis());
      assertThat(preflight(b).status()).as("another server, after the refresh").isEqualTo(200);

      a.sdk().setProperties(new TableServiceProperties().setCorsRules(List.of()));
      assertErrorCode(preflight(a), 403, "CorsPreflightFailure");
      Thread.sleep(REFRESH.toMillis());
      assertErrorCode(preflight(b), 403, "CorsPreflightFailure");
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(
      value = Deployment.class,
      names = {"H2", "POSTGRESQL"})
  void withoutRefreshAnotherServerEnforcesACorsRuleAtOnce(Deployment deployment) {
    try (ServerCluster cluster =
        ServerCluster.start(deployment, 2, 2, builder -> builder.settingsRefresh(Duration.ZERO))) {
      assertErrorCode(preflight(cluster.server(1)), 403, "CorsPreflightFailure");
      cluster
          .server(0)
          .sdk()
          .setProperties(
              new TableServiceProperties()
                  .setCorsRules(
                      List.of(
                          new TableServiceCorsRule()
                              .setAllowedOrigins("*")
                              .setAllowedMethods("GET,POST")
                              .setAllowedHeaders("*")
                              .setExposedHeaders("*")
                              .setMaxAgeInSeconds(5))));
      assertThat(preflight(cluster.server(1)).status()).isEqualTo(200);
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void anAccessPolicyRevokedThroughOneServerRefusesItsSasOnAnotherAtOnce(Deployment deployment) {
    try (ServerCluster cluster = ServerCluster.start(deployment, 2, 2)) {
      TableClient table = cluster.server(0).newTable("revoked");
      OffsetDateTime start = OffsetDateTime.now().minusMinutes(5);
      table.setAccessPolicies(
          List.of(
              new TableSignedIdentifier("readers")
                  .setAccessPolicy(
                      new TableAccessPolicy()
                          .setStartsOn(start)
                          .setExpiresOn(start.plusDays(1))
                          .setPermissions("r"))));
      String sas = table.generateSas(new TableSasSignatureValues("readers"));
      String query = "/" + table.getTableName() + "()?" + sas;
      assertThat(cluster.server(1).raw().call("GET", query).unsigned().send().status())
          .isEqualTo(200);

      table.setAccessPolicies(List.of());
      RawClient.Reply refused = cluster.server(1).raw().call("GET", query).unsigned().send();
      assertErrorCode(refused, 403, "AuthenticationFailed");
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void aTableDeletedAndCreatedAgainThroughOneServerIsTheNewTableOnAnother(Deployment deployment) {
    try (ServerCluster cluster = ServerCluster.start(deployment, 2, 2)) {
      String name = ServerFixture.uniqueName("again");
      RawClient a = cluster.server(0).raw();
      RawClient b = cluster.server(1).raw();
      assertThat(a.call("POST", "/Tables").json("{\"TableName\":\"" + name + "\"}").send().status())
          .isEqualTo(201);
      assertThat(
              b.call("POST", "/" + name)
                  .json("{\"PartitionKey\":\"p\",\"RowKey\":\"old\"}")
                  .send()
                  .status())
          .isEqualTo(201);
      assertThat(a.call("DELETE", "/Tables('" + name + "')").send().status()).isEqualTo(204);
      assertErrorCode(
          b.call("GET", MultiServerTest.entityPath(name, "p", "old")).send(), 404, "TableNotFound");
      assertThat(a.call("POST", "/Tables").json("{\"TableName\":\"" + name + "\"}").send().status())
          .isEqualTo(201);
      assertErrorCode(
          b.call("GET", MultiServerTest.entityPath(name, "p", "old")).send(),
          404,
          "ResourceNotFound");
      assertThat(
              b.call("POST", "/" + name)
                  .json("{\"PartitionKey\":\"p\",\"RowKey\":\"old\"}")
                  .send()
                  .status())
          .isEqualTo(201);
    }
  }

  private static RawClient.Reply preflight(ServerFixture server) {
    return server
        .raw()
        .call("OPTIONS", "/Tables")
        .unsigned()
        .header("Origin", "http://app.example")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "x-ms-version")
        .send();
  }
}
