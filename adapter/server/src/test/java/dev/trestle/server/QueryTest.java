package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.testing.DatabaseTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

class QueryTest extends ServerTest {

  private static List<String> rowKeys(Iterable<TableEntity> entities) {
    List<String> keys = new ArrayList<>();
    entities.forEach(e -> keys.add(e.getRowKey()));
    return keys;
  }

  @DatabaseTest
  void filterSelectAndTopThroughTheSdk(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("query");
    for (int i = 0; i < 10; i++) {
      table.createEntity(
          new TableEntity("p", String.format("r%02d", i))
              .addProperty("N", i)
              .addProperty("Name", "n" + i));
    }
    List<TableEntity> found =
        table
            .listEntities(
                new ListEntitiesOptions().setFilter("N ge 3 and N lt 6").setSelect(List.of("Name")),
                null,
                null)
            .stream()
            .toList();
    assertThat(found).extracting(e -> e.getProperty("Name")).containsExactly("n3", "n4", "n5");
    assertThat(found).allSatisfy(e -> assertThat(e.getProperty("N")).isNull());

    var pages =
        table.listEntities(new ListEntitiesOptions().setTop(4), null, null).iterableByPage();
    List<Integer> sizes = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (PagedResponse<TableEntity> page : pages) {
      sizes.add(page.getValue().size());
      all.addAll(rowKeys(page.getValue()));
    }
    assertThat(sizes).containsExactly(4, 4, 2);
    assertThat(all).hasSize(10).isSorted();
  }

  @DatabaseTest
  void pagingOverMoreThanAThousandEntitiesAcrossPartitions(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("paging");
    int total = 0;
    for (int partition = 0; partition < 3; partition++) {
      int size = partition == 0 ? 700 : partition == 1 ? 450 : 101;
      List<TableTransactionAction> batch = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        batch.add(
            new TableTransactionAction(
                TableTransactionActionType.CREATE,
                new TableEntity("part" + partition, String.format("row%05d", i))
                    .addProperty("N", i)));
        if (batch.size() == 100 || i == size - 1) {
          table.submitTransaction(batch);
          batch = new ArrayList<>();
        }
      }
      total += size;
    }
    List<String> keys = new ArrayList<>();
    int pages = 0;
    for (PagedResponse<TableEntity> page : table.listEntities().iterableByPage()) {
      assertThat(page.getValue().size()).isLessThanOrEqualTo(1000);
      page.getValue().forEach(e -> keys.add(e.getPartitionKey() + "/" + e.getRowKey()));
      pages++;
    }
    assertThat(pages).isGreaterThanOrEqualTo(2);
    assertThat(keys).hasSize(total).doesNotHaveDuplicates().isSorted();
  }

  @DatabaseTest
  void selectOfAMissingPropertyIsNullAndEmptyFilterMatchesAll(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("select");
    table.createEntity(new TableEntity("p", "r").addProperty("Name", "x"));
    RawClient.Reply reply =
        fx.raw().call("GET", "/" + table.getTableName() + "()?$filter=&$select=Name,Nick").send();
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body())
        .contains("\"Name\":\"x\"")
        .contains("\"Nick\":null")
        .doesNotContain("PartitionKey");
  }

  @DatabaseTest
  void continuationHeadersResumeARawQuery(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("cont");
    for (int i = 0; i < 3; i++) {
      table.createEntity(new TableEntity("p" + i, "r"));
    }
    String path = "/" + table.getTableName() + "()?$top=2";
    RawClient.Reply first =
        fx.raw().call("GET", path).header("Accept", "application/json;odata=nometadata").send();
    assertThat(first.body())
        .startsWith("{\"value\":[{\"PartitionKey\":\"p0\",\"RowKey\":\"r\",\"Timestamp\":")
        .contains("\"PartitionKey\":\"p1\"")
        .doesNotContain("odata.")
        .doesNotContain("\"p2\"");
    String npk = first.header("x-ms-continuation-NextPartitionKey");
    String nrk = first.header("x-ms-continuation-NextRowKey");
    assertThat(npk).isNotNull();
    RawClient.Reply second =
        fx.raw()
            .call(
                "GET",
                path
                    + "&NextPartitionKey="
                    + encode(npk)
                    + (nrk == null ? "" : "&NextRowKey=" + encode(nrk)))
            .send();
    assertThat(second.body()).contains("\"PartitionKey\":\"p2\"").doesNotContain("\"p0\"");
    assertThat(second.header("x-ms-continuation-NextPartitionKey")).isNull();
  }

  private static String encode(String value) {
    return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * One check, in the query records; on the wire every bad {@code $top} is Azure's InvalidInput.
   */
  @DatabaseTest
  void aTopOutOfRangeOrNotANumberIsInvalidInputForEntitiesAndTables(TableService tables) {
    start(tables);
    String table = fx.newTable("top").getTableName();
    for (String top : new String[] {"-1", "1001", "abc", "2147483648"}) {
      for (String path : new String[] {"/" + table + "()?$top=" + top, "/Tables?$top=" + top}) {
        RawClient.Reply reply = fx.raw().call("GET", path).send();
        assertErrorCode(reply, 400, "InvalidInput");
      }
    }
    assertThat(fx.raw().call("GET", "/" + table + "()?$top=1000").send().status()).isEqualTo(200);
  }

  /**
   * {@code $top=0} is an empty page without continuation, as on Azure (Azurite issue 1428, from the
   * Storage Explorer team) and in OData: a client following a continuation would loop.
   */
  @DatabaseTest
  void aTopOfZeroIsAnEmptyPageWithoutContinuation(TableService tables) {
    start(tables);
    String table = fx.newTable("topzero").getTableName();
    for (int i = 0; i < 3; i++) {
      fx.raw()
          .call("POST", "/" + table)
          .json("{\"PartitionKey\":\"p\",\"RowKey\":\"" + i + "\"}")
          .send();
    }
    for (String path :
        new String[] {
          "/" + table + "()?$top=0",
          "/" + table + "()?$top=0&$filter=PartitionKey%20eq%20'p'",
          "/Tables?$top=0"
        }) {
      RawClient.Reply reply = fx.raw().call("GET", path).send();
      assertThat(reply.status()).as(path).isEqualTo(200);
      assertThat(reply.body()).as(path).contains("\"value\":[]");
      assertThat(reply.response().headers().map().keySet())
          .as(path)
          .noneMatch(name -> name.toLowerCase(Locale.ROOT).startsWith("x-ms-continuation"));
    }
    assertErrorCode(
        fx.raw().call("GET", "/" + table + "()?$top=0&$filter=Nope%20eq").send(),
        400,
        "InvalidInput");
    assertErrorCode(fx.raw().call("GET", "/nosuchtable()?$top=0").send(), 404, "TableNotFound");
    assertThat(fx.raw().call("GET", "/Tables?$top=1").send().status()).isEqualTo(200);
  }
}
