package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceException;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.testing.DatabaseTest;
import java.util.List;

class TableOperationsTest extends ServerTest {

  @DatabaseTest
  void createListAndDeleteThroughTheSdk(TableService tables) {
    start(tables);
    String name = ServerFixture.uniqueName("Tab");
    assertThat(fx.sdk().createTable(name).getTableName()).isEqualTo(name);

    List<String> listed =
        fx
            .sdk()
            .listTables(
                new ListTablesOptions().setFilter("TableName eq '" + name + "'"), null, null)
            .stream()
            .map(TableItem::getName)
            .toList();
    assertThat(listed).containsExactly(name);

    fx.sdk().deleteTable(name);
    assertThat(
            fx
                .sdk()
                .listTables(
                    new ListTablesOptions().setFilter("TableName eq '" + name + "'"), null, null)
                .stream()
                .count())
        .isZero();
  }

  @DatabaseTest
  void duplicateCreateIsTableAlreadyExistsWhateverTheCase(TableService tables) {
    start(tables);
    String name = ServerFixture.uniqueName("Dup");
    fx.sdk().createTable(name);
    assertThatThrownBy(() -> fx.sdk().createTable(name.toUpperCase()))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> {
              assertThat(e.getResponse().getStatusCode()).isEqualTo(409);
              assertThat(e.getValue().getErrorCode().toString()).isEqualTo("TableAlreadyExists");
            });
    assertThat(fx.sdk().createTableIfNotExists(name).getTableName()).isEqualTo(name);
  }

  @DatabaseTest
  void listingPagesWithTopAndNextTableName(TableService tables) {
    start(tables);
    String prefix = ServerFixture.uniqueName("pg");
    for (char c = 'a'; c <= 'e'; c++) {
      fx.sdk().createTable(prefix + c);
    }
    List<String> names =
        fx
            .sdk()
            .listTables(
                new ListTablesOptions()
                    .setFilter("TableName ge '" + prefix + "' and TableName lt '" + prefix + "z'")
                    .setTop(2),
                null,
                null)
            .stream()
            .map(TableItem::getName)
            .toList();
    assertThat(names)
        .containsExactly(prefix + "a", prefix + "b", prefix + "c", prefix + "d", prefix + "e");

    RawClient.Reply page =
        fx.raw().call("GET", "/Tables?$top=2&$filter=TableName%20ge%20'" + prefix + "'").send();
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.header("x-ms-continuation-NextTableName")).isNotBlank();
  }

  @DatabaseTest
  void createWithReturnNoContentAnswers204WithLocation(TableService tables) {
    start(tables);
    String name = ServerFixture.uniqueName("nc");
    RawClient.Reply reply =
        fx.raw()
            .call("POST", "/Tables")
            .header("Prefer", "return-no-content")
            .json("{\"TableName\":\"" + name + "\"}")
            .send();
    assertThat(reply.status()).isEqualTo(204);
    assertThat(reply.header("Preference-Applied")).isEqualTo("return-no-content");
    assertThat(reply.header("Location")).isEqualTo(fx.endpoint() + "/Tables('" + name + "')");
    assertThat(reply.header("DataServiceId")).isEqualTo(reply.header("Location"));
    assertThat(fx.raw().call("GET", "/Tables('" + name + "')").send().status()).isEqualTo(200);
  }

  @DatabaseTest
  void deletingAMissingTableAnswersResourceNotFoundAsAzureDoes(TableService tables) {
    start(tables);
    RawClient.Reply delete =
        fx.raw().call("DELETE", "/Tables('" + ServerFixture.uniqueName("gone") + "')").send();
    assertErrorCode(delete, 404, "ResourceNotFound");
    assertThat(delete.body())
        .contains("\"code\":\"ResourceNotFound\"", "The specified resource does not exist.");
  }

  @DatabaseTest
  void entityOperationsOnAMissingTableAnswerTableNotFound(TableService tables) {
    start(tables);
    String name = ServerFixture.uniqueName("gone");
    RawClient.Reply insert =
        fx.raw().call("POST", "/" + name).json("{\"PartitionKey\":\"a\",\"RowKey\":\"b\"}").send();
    assertErrorCode(insert, 404, "TableNotFound");
  }

  @DatabaseTest
  void invalidNamesAreRejectedWithTheServiceCode(TableService tables) {
    start(tables);
    for (String name : new String[] {"9digit", "ab", "has-dash", "tables"}) {
      RawClient.Reply reply =
          fx.raw().call("POST", "/Tables").json("{\"TableName\":\"" + name + "\"}").send();
      assertThat(reply.status()).as(name).isEqualTo(400);
      assertThat(reply.header("x-ms-error-code"))
          .as(name)
          .isIn("InvalidResourceName", "OutOfRangeInput");
    }
  }
}
