package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableService;
import dev.trestle.server.support.RawHttp;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.testing.DatabaseTest;
import java.net.Socket;
import org.junit.jupiter.api.AfterEach;

/**
 * Host-style URLs beside path-style ones on one server: the account from the Host's first label,
 * links (odata.metadata, odata.id, Location) in the style of the request, the secondary host.
 * Anonymous raw requests, so that any Host can be sent; the SDKs' signing is in HostStyleSdkTest.
 */
class HostStyleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FULL = "application/json;odata=fullmetadata";

  private TrestleServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private RawHttp connect() throws Exception {
    return new RawHttp(new Socket("127.0.0.1", server.port()));
  }

  private TrestleServer start(TableService tables, boolean hostStyle) {
    server =
        TrestleServer.builder(tables)
            .port(0)
            .account(tables.accountName(), TrestleServer.DEV_ACCOUNT_KEY)
            .allowAnonymous(true)
            .hostStyleUrls(hostStyle)
            .build()
            .start();
    return server;
  }

  @DatabaseTest
  void linksKeepTheStyleOfTheRequest(TableService tables) throws Exception {
    start(tables, true);
    String account = tables.accountName();
    String host = account + ".table.trestle.test:" + server.port();
    String base = "http://" + host;
    String table = ServerFixture.uniqueName("hosted");

    try (RawHttp http = connect()) {
      RawHttp.Reply created =
          http.send(
              "POST",
              "/Tables",
              host,
              "{\"TableName\":\"" + table + "\"}",
              "Content-Type",
              "application/json",
              "Accept",
              FULL,
              "x-ms-version",
              "2019-02-02");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      assertThat(created.header("Location")).isEqualTo(base + "/Tables('" + table + "')");
      JsonNode createdTable = JSON.readTree(created.body());
      assertThat(createdTable.get("odata.metadata").asText())
          .isEqualTo(base + "/$metadata#Tables/@Element");
      assertThat(createdTable.get("odata.id").asText())
          .isEqualTo(base + "/Tables('" + table + "')");
      assertThat(createdTable.get("odata.editLink").asText()).isEqualTo("Tables('" + table + "')");

      RawHttp.Reply inserted =
          http.send(
              "POST",
              "/" + table,
              host,
              "{\"PartitionKey\":\"p\",\"RowKey\":\"r 1\",\"V\":1}",
              "Content-Type",
              "application/json",
              "Accept",
              FULL,
              "x-ms-version",
              "2019-02-02");
      assertThat(inserted.status()).as(inserted.body()).isEqualTo(201);
      String entity = table + "(PartitionKey='p',RowKey='r%201')";
      assertThat(inserted.header("Location")).isEqualTo(base + "/" + entity);
      JsonNode insertedEntity = JSON.readTree(inserted.body());
      assertThat(insertedEntity.get("odata.metadata").asText())
          .isEqualTo(base + "/$metadata#" + table + "/@Element");
      assertThat(insertedEntity.get("odata.id").asText()).isEqualTo(base + "/" + entity);

      RawHttp.Reply queried =
          http.send(
              "GET", "/" + table + "()", host, null, "Accept", FULL, "x-ms-version", "2019-02-02");
      assertThat(queried.status()).as(queried.body()).isEqualTo(200);
      JsonNode page = JSON.readTree(queried.body());
      assertThat(page.get("odata.metadata").asText()).isEqualTo(base + "/$metadata#" + table);
      assertThat(page.get("value").get(0).get("odata.id").asText()).isEqualTo(base + "/" + entity);

      RawHttp.Reply read =
          http.send(
              "GET",
              "/" + table + "(PartitionKey='p',RowKey='r%201')",
              host,
              null,
              "Accept",
              FULL,
              "x-ms-version",
              "2019-02-02");
      assertThat(read.status()).as(read.body()).isEqualTo(200);
      assertThat(JSON.readTree(read.body()).get("V").asInt()).isEqualTo(1);

      // path-style on the same server and connection: path-style links
      String pathHost = "127.0.0.1:" + server.port();
      RawHttp.Reply pathStyle =
          http.send(
              "GET",
              "/" + account + "/" + table + "()",
              pathHost,
              null,
              "Accept",
              FULL,
              "x-ms-version",
              "2019-02-02");
      assertThat(pathStyle.status()).as(pathStyle.body()).isEqualTo(200);
      assertThat(JSON.readTree(pathStyle.body()).get("odata.metadata").asText())
          .isEqualTo("http://" + pathHost + "/" + account + "/$metadata#" + table);

      // Azurite's production-style URLs on localhost names
      String localhost = account + ".localhost:" + server.port();
      RawHttp.Reply tablesList =
          http.send(
              "GET", "/Tables", localhost, null, "Accept", FULL, "x-ms-version", "2019-02-02");
      assertThat(tablesList.status()).as(tablesList.body()).isEqualTo(200);
      assertThat(tablesList.body())
          .contains("\"odata.metadata\":\"http://" + localhost + "/$metadata#Tables\"")
          .contains(table);
    }
  }

  @DatabaseTest
  void theSecondaryHostServesStatisticsAndReadsButNoWrites(TableService tables) throws Exception {
    start(tables, true);
    String account = tables.accountName();
    String primary = account + ".table.trestle.test:" + server.port();
    String secondary = account + "-secondary.table.trestle.test:" + server.port();
    try (RawHttp http = connect()) {
      RawHttp.Reply stats =
          http.send(
              "GET", "/?restype=service&comp=stats", secondary, null, "x-ms-version", "2019-02-02");
      assertThat(stats.status()).as(stats.body()).isEqualTo(200);
      assertThat(stats.body()).contains("<GeoReplication>").contains("<Status>live</Status>");

      RawHttp.Reply onPrimary =
          http.send(
              "GET", "/?restype=service&comp=stats", primary, null, "x-ms-version", "2019-02-02");
      assertThat(onPrimary.status()).isEqualTo(400);
      assertThat(onPrimary.header("x-ms-error-code")).isEqualTo("InvalidQueryParameterValue");

      RawHttp.Reply read =
          http.send(
              "GET", "/Tables", secondary, null, "Accept", FULL, "x-ms-version", "2019-02-02");
      assertThat(read.status()).as(read.body()).isEqualTo(200);
      assertThat(read.body())
          .contains("\"odata.metadata\":\"http://" + secondary + "/$metadata#Tables\"");

      RawHttp.Reply write =
          http.send(
              "POST",
              "/Tables",
              secondary,
              "{\"TableName\":\"nope\"}",
              "Content-Type",
              "application/json",
              "x-ms-version",
              "2019-02-02");
      assertThat(write.status()).isEqualTo(403);
      assertThat(write.header("x-ms-error-code")).isEqualTo("AuthorizationFailure");
    }
  }

  @DatabaseTest
  void switchedOffTheHostNameIsIgnored(TableService tables) throws Exception {
    start(tables, false);
    String account = tables.accountName();
    String host = account + ".table.trestle.test:" + server.port();
    try (RawHttp http = connect()) {
      RawHttp.Reply hostStyle =
          http.send("GET", "/Tables", host, null, "Accept", FULL, "x-ms-version", "2019-02-02");
      assertThat(hostStyle.status()).isEqualTo(403); // no account called "Tables"
      RawHttp.Reply pathStyle =
          http.send(
              "GET",
              "/" + account + "/Tables",
              host,
              null,
              "Accept",
              FULL,
              "x-ms-version",
              "2019-02-02");
      assertThat(pathStyle.status()).as(pathStyle.body()).isEqualTo(200);
      assertThat(pathStyle.body())
          .contains("\"odata.metadata\":\"http://" + host + "/" + account + "/$metadata#Tables\"");
    }
  }
}
