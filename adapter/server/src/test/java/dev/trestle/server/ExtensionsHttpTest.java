package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.RawClient.Reply;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

class ExtensionsHttpTest extends ServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Partitions p0..p2, rows r00..r09, N = row number. */
  private TableClient seeded() {
    TableClient table = fx.newTable("ext");
    for (int p = 0; p < 3; p++) {
      List<TableTransactionAction> batch = new ArrayList<>();
      for (int r = 0; r < 10; r++) {
        batch.add(
            new TableTransactionAction(
                TableTransactionActionType.CREATE,
                new TableEntity("p" + p, String.format("r%02d", r)).addProperty("N", r)));
      }
      table.submitTransaction(batch);
    }
    return table;
  }

  private static List<String> keys(Reply reply) throws Exception {
    List<String> keys = new ArrayList<>();
    for (JsonNode entity : JSON.readTree(reply.body()).get("value")) {
      keys.add(entity.get("PartitionKey").asText() + "/" + entity.get("RowKey").asText());
    }
    return keys;
  }

  @DatabaseTest
  void countsOverHttp(TableService tables) {
    start(tables);
    String name = seeded().getTableName();
    RawClient raw = fx.raw();

    Reply all = raw.call("GET", "/" + name + "()/$count").send();
    assertThat(all.status()).isEqualTo(200);
    assertThat(all.header("Content-Type")).startsWith("text/plain");
    assertThat(all.body()).isEqualTo("30");
    assertThat(raw.call("GET", "/" + name + "/$count?$filter=" + enc("N lt 3")).send().body())
        .isEqualTo("9");
    assertThat(
            raw.call("GET", "/" + name + "(PartitionKey='p1',RowKey='r05')/$count").send().body())
        .isEqualTo("1");
    assertThat(raw.call("GET", "/" + name + "(PartitionKey='p1',RowKey='zz')/$count").send().body())
        .isEqualTo("0");
    assertError(raw.call("GET", "/nosuchtable()/$count").send(), 404, "TableNotFound");
    assertError(
        raw.call("GET", "/" + name + "()/$count?$filter=" + enc("N lt")).send(),
        400,
        "InvalidInput");
    assertError(raw.call("POST", "/" + name + "()/$count").send(), 405, "MethodNotAllowed");
  }

  @DatabaseTest
  void aKeyRangeSasCountsOnlyItsRangeAndNeedsReadPermission(TableService tables) {
    start(tables);
    TableClient table = seeded();
    String ranged =
        table.generateSas(
            new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r"))
                .setStartPartitionKey("p1")
                .setStartRowKey("0")
                .setEndPartitionKey("p1")
                .setEndRowKey("zz"));
    String addOnly =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("a")));
    RawClient raw = fx.raw();

    assertThat(
            raw.call("GET", "/" + table.getTableName() + "()/$count?" + ranged)
                .unsigned()
                .send()
                .body())
        .isEqualTo("10");
    assertError(
        raw.call("GET", "/" + table.getTableName() + "()/$count?" + addOnly).unsigned().send(),
        403,
        "AuthorizationPermissionMismatch");
    assertError(
        raw.call("DELETE", "/" + table.getTableName() + "()?trestle-delete=all&" + ranged)
            .unsigned()
            .send(),
        403,
        "AuthorizationPermissionMismatch");
  }

  @DatabaseTest
  void pagesNewestFirstWithContinuations(TableService tables) throws Exception {
    start(tables);
    String name = seeded().getTableName();
    RawClient raw = fx.raw();
    String base =
        "/"
            + name
            + "()?trestle-orderby="
            + enc("RowKey desc")
            + "&$filter="
            + enc("PartitionKey eq 'p1'")
            + "&$top=4";

    Reply first = raw.call("GET", base).send();
    assertThat(first.status()).isEqualTo(200);
    assertThat(keys(first)).containsExactly("p1/r09", "p1/r08", "p1/r07", "p1/r06");
    List<String> all = new ArrayList<>(keys(first));
    Reply page = first;
    while (page.header("x-ms-continuation-NextPartitionKey") != null) {
      page =
          raw.call(
                  "GET",
                  base
                      + "&NextPartitionKey="
                      + enc(page.header("x-ms-continuation-NextPartitionKey"))
                      + "&NextRowKey="
                      + enc(page.header("x-ms-continuation-NextRowKey")))
              .send();
      all.addAll(keys(page));
    }
    assertThat(all).hasSize(10).isSortedAccordingTo((a, b) -> b.compareTo(a));
    assertError(
        raw.call("GET", "/" + name + "()?trestle-orderby=N").send(),
        400,
        "InvalidQueryParameterValue");
  }

  @DatabaseTest
  @MultiShardWrites("trestle-delete=all deletes every partition of the table in one statement")
  void deletesAPartitionByFilterAndAllOverHttp(TableService tables) {
    start(tables);
    TableClient table = seeded();
    String name = table.getTableName();
    RawClient raw = fx.raw();

    Reply partition =
        raw.call("DELETE", "/" + name + "()?trestle-delete=partition&trestle-partition=p0").send();
    assertThat(partition.status()).isEqualTo(200);
    assertThat(partition.body()).isEqualTo("{\"deleted\":10}");
    assertThat(partition.header("trestle-deleted")).isEqualTo("10");
    Reply where =
        raw.call("DELETE", "/" + name + "()?trestle-delete=where&$filter=" + enc("N ge 5")).send();
    assertThat(where.body()).isEqualTo("{\"deleted\":10}");
    assertThat(table.listEntities().stream().count()).isEqualTo(10);
    assertThat(raw.call("DELETE", "/" + name + "()?trestle-delete=all").send().body())
        .isEqualTo("{\"deleted\":10}");
    assertThat(table.listEntities().stream().count()).isZero();

    assertError(
        raw.call("DELETE", "/" + name + "()?trestle-delete=where").send(), 400, "InvalidInput");
    assertError(
        raw.call("DELETE", "/" + name + "()?trestle-delete=some").send(),
        400,
        "InvalidQueryParameterValue");
    // without the option, a DELETE of an entity set stays what it is on Azure
    assertError(raw.call("DELETE", "/" + name + "()").send(), 405, "MethodNotAllowed");
  }

  @DatabaseTest
  void aKeyRangeSasDeletesOnlyInsideItsRange(TableService tables) {
    start(tables);
    TableClient table = seeded();
    String sas =
        table.generateSas(
            new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("rd"))
                .setStartPartitionKey("p1")
                .setStartRowKey("0")
                .setEndPartitionKey("p1")
                .setEndRowKey("zz"));

    Reply reply =
        fx.raw()
            .call("DELETE", "/" + table.getTableName() + "()?trestle-delete=all&" + sas)
            .unsigned()
            .send();

    assertThat(reply.body()).isEqualTo("{\"deleted\":10}");
    assertThat(table.listEntities().stream().map(TableEntity::getPartitionKey).distinct())
        .containsExactly("p0", "p2");
  }

  @DatabaseTest
  void switchedOffEveryExtensionIsNotImplementedAndStandardRequestsAreUnchanged(
      TestDatabase database) {
    try (TableService off =
        TableService.builder()
            .dataSource(database.dataSource())
            .account(TestDatabase.newAccount())
            .migrate(false)
            .extensions(false)
            .build()) {
      start(off);
      TableClient table = seeded();
      String name = table.getTableName();
      RawClient raw = fx.raw();

      assertError(raw.call("GET", "/" + name + "()/$count").send(), 501, "NotImplemented");
      assertError(
          raw.call("GET", "/" + name + "(PartitionKey='p0',RowKey='r00')/$count").send(),
          501,
          "NotImplemented");
      assertError(
          raw.call("GET", "/" + name + "()?trestle-orderby=" + enc("RowKey desc")).send(),
          501,
          "NotImplemented");
      assertError(
          raw.call("DELETE", "/" + name + "()?trestle-delete=all").send(), 501, "NotImplemented");
      assertThat(table.listEntities().stream().count()).isEqualTo(30);
      assertThat(table.getEntity("p1", "r01").getProperty("N")).isEqualTo(1);
    }
  }

  @DatabaseTest
  void startsWithInTheFilterOfExtensionRequestsOnly(TableService tables) throws Exception {
    start(tables);
    String name = seeded().getTableName();
    RawClient raw = fx.raw();
    String prefix = enc("startswith(RowKey,'r0') and PartitionKey eq 'p2'");

    assertThat(raw.call("GET", "/" + name + "()/$count?$filter=" + prefix).send().body())
        .isEqualTo("10");
    Reply latest =
        raw.call(
                "GET",
                "/"
                    + name
                    + "()?trestle-orderby="
                    + enc("RowKey desc")
                    + "&$top=2&$filter="
                    + prefix)
            .send();
    assertThat(keys(latest)).containsExactly("p2/r09", "p2/r08");
    // a standard query is answered as Azure answers it
    assertError(raw.call("GET", "/" + name + "()?$filter=" + prefix).send(), 400, "InvalidInput");
  }
}
