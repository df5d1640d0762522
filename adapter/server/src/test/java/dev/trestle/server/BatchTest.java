package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.models.TableTransactionResult;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.testing.DatabaseTest;
import java.util.List;

class BatchTest extends ServerTest {

  @DatabaseTest
  void mixedTransactionCommitsEveryOperation(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("tx");
    table.createEntity(new TableEntity("tx", "upd").addProperty("V", 1).addProperty("Keep", "k"));
    table.createEntity(new TableEntity("tx", "del"));
    table.createEntity(new TableEntity("tx", "rep").addProperty("Gone", 1));
    TableTransactionResult result =
        table.submitTransaction(
            List.of(
                new TableTransactionAction(
                    TableTransactionActionType.CREATE,
                    new TableEntity("tx", "new").addProperty("V", 10)),
                new TableTransactionAction(
                    TableTransactionActionType.UPSERT_REPLACE,
                    new TableEntity("tx", "ups").addProperty("V", 20)),
                new TableTransactionAction(
                    TableTransactionActionType.UPSERT_MERGE,
                    new TableEntity("tx", "upm").addProperty("V", 25)),
                new TableTransactionAction(
                    TableTransactionActionType.UPDATE_MERGE,
                    new TableEntity("tx", "upd").addProperty("V", 2)),
                new TableTransactionAction(
                    TableTransactionActionType.UPDATE_REPLACE,
                    new TableEntity("tx", "rep").addProperty("V", 3)),
                new TableTransactionAction(
                    TableTransactionActionType.DELETE, new TableEntity("tx", "del"))));
    assertThat(result.getTransactionActionResponses())
        .hasSize(6)
        .allSatisfy(r -> assertThat(r.getStatusCode()).isEqualTo(204));
    assertThat(table.getEntity("tx", "new").getProperty("V")).isEqualTo(10);
    assertThat(table.getEntity("tx", "ups").getProperty("V")).isEqualTo(20);
    assertThat(table.getEntity("tx", "upm").getProperty("V")).isEqualTo(25);
    assertThat(table.getEntity("tx", "upd").getProperties())
        .containsEntry("V", 2)
        .containsEntry("Keep", "k");
    assertThat(table.getEntity("tx", "rep").getProperties())
        .containsEntry("V", 3)
        .doesNotContainKey("Gone");
    assertThat(table.listEntities().stream().map(TableEntity::getRowKey)).doesNotContain("del");
  }

  @DatabaseTest
  void failureNamesTheFailingIndexAndRollsBack(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("txfail");
    List<TableTransactionAction> actions =
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("ix", "0")),
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("ix", "1")),
            new TableTransactionAction(
                TableTransactionActionType.UPDATE_MERGE, new TableEntity("ix", "missing")));
    assertThatThrownBy(() -> table.submitTransaction(actions))
        .isInstanceOfSatisfying(
            TableTransactionFailedException.class,
            e -> {
              assertThat(e.getFailedTransactionActionIndex()).isEqualTo(2);
              assertThat(e.getValue().getErrorCode().toString()).isEqualTo("ResourceNotFound");
            });
    assertThat(table.listEntities().stream().count()).isZero();
  }

  @DatabaseTest
  void singleOperationFailureReachesTheSdkAsATransactionFailure(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("txone");
    assertThatThrownBy(
            () ->
                table.submitTransaction(
                    List.of(
                        new TableTransactionAction(
                            TableTransactionActionType.UPDATE_MERGE,
                            new TableEntity("ix", "missing")))))
        .isInstanceOfSatisfying(
            TableTransactionFailedException.class,
            e -> assertThat(e.getValue().getErrorCode().toString()).isEqualTo("ResourceNotFound"));
  }

  @DatabaseTest
  void rawChangeSetFailureIsASinglePartWithTheIndexPrefix(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("txraw");
    table.createEntity(new TableEntity("b", "exists"));
    String body =
        batch(
            table.getTableName(),
            "POST "
                + fx.endpoint()
                + "/"
                + table.getTableName()
                + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
                + "{\"PartitionKey\":\"b\",\"RowKey\":\"new\"}",
            "POST "
                + fx.endpoint()
                + "/"
                + table.getTableName()
                + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
                + "{\"PartitionKey\":\"b\",\"RowKey\":\"exists\"}");
    RawClient.Reply reply =
        fx.raw()
            .call("POST", "/$batch")
            .body(body.getBytes(), "multipart/mixed; boundary=batch_x")
            .send();
    assertThat(reply.status()).isEqualTo(202);
    assertThat(reply.header("Content-Type")).startsWith("multipart/mixed; boundary=batchresponse_");
    assertThat(reply.body())
        .containsOnlyOnce("HTTP/1.1 ")
        .contains("HTTP/1.1 409 Conflict")
        .contains("\"code\":\"EntityAlreadyExists\"")
        .contains("\"value\":\"1:The specified entity already exists.");
    assertThat(table.listEntities().stream().count()).isEqualTo(1);
  }

  @DatabaseTest
  void differentPartitionsAndRepeatedEntitiesAreRejected(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("txrules");
    String insertA =
        "POST "
            + fx.endpoint()
            + "/"
            + table.getTableName()
            + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
            + "{\"PartitionKey\":\"p1\",\"RowKey\":\"a\"}";
    String insertB = insertA.replace("\"p1\"", "\"p2\"");
    RawClient.Reply partitions =
        fx.raw()
            .call("POST", "/$batch")
            .body(
                batch(table.getTableName(), insertA, insertB).getBytes(),
                "multipart/mixed; boundary=batch_x")
            .send();
    assertThat(partitions.body())
        .contains("CommandsInBatchActOnDifferentPartitions")
        .contains("\"value\":\"1:");
    RawClient.Reply repeated =
        fx.raw()
            .call("POST", "/$batch")
            .body(
                batch(table.getTableName(), insertA, insertA).getBytes(),
                "multipart/mixed; boundary=batch_x")
            .send();
    assertThat(repeated.body()).contains("InvalidDuplicateRow").contains("\"value\":\"1:");
    assertThat(table.listEntities().stream().count()).isZero();
  }

  @DatabaseTest
  void malformedMultipartIsInvalidInputNeverAServerError(TableService tables) {
    start(tables);
    for (String body :
        new String[] {
          "not multipart at all",
          "--batch_x\r\nContent-Type: application/http\r\n\r\nPOST",
          "--batch_x\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\nContent-Type: application/http\r\n\r\n"
              + "GARBAGE LINE\r\n\r\n--cs--\r\n--batch_x--\r\n"
        }) {
      RawClient.Reply reply =
          fx.raw()
              .call("POST", "/$batch")
              .body(body.getBytes(), "multipart/mixed; boundary=batch_x")
              .send();
      assertErrorCode(reply, 400, "InvalidInput");
    }
  }

  @DatabaseTest
  void singleQueryBatchReturnsTheEntity(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("txget");
    table.createEntity(new TableEntity("q", "1").addProperty("V", "found"));
    String body =
        "--batch_x\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
            + "GET "
            + fx.endpoint()
            + "/"
            + table.getTableName()
            + "(PartitionKey='q',RowKey='1') HTTP/1.1\r\n"
            + "Accept: application/json;odata=nometadata\r\n\r\n--batch_x--\r\n";
    RawClient.Reply reply =
        fx.raw()
            .call("POST", "/$batch")
            .body(body.getBytes(), "multipart/mixed; boundary=batch_x")
            .send();
    assertThat(reply.status()).isEqualTo(202);
    assertThat(reply.body())
        .contains("HTTP/1.1 200 OK")
        .contains("\"V\":\"found\"")
        .doesNotContain("changesetresponse");
  }

  /**
   * Parts answered as Azure answers them (recorded): no Content-ID echoed, success or failure, and
   * DataServiceVersion 3.0 for an insert even without content, 1.0 for a merge.
   */
  @DatabaseTest
  void partsEchoNoContentIdAndNameTheirDataServiceVersionAsAzure(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("txparts");
    table.createEntity(new TableEntity("c", "m"));
    String url = fx.endpoint() + "/" + table.getTableName();
    String insert =
        "Content-ID: 1\r\n\r\nPOST "
            + url
            + " HTTP/1.1\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\n\r\n"
            + "{\"PartitionKey\":\"c\",\"RowKey\":\"new\"}";
    String merge =
        "Content-ID: 2\r\n\r\nMERGE "
            + url
            + "(PartitionKey='c',RowKey='m') HTTP/1.1\r\nContent-Type: application/json\r\n"
            + "If-Match: *\r\n\r\n{\"A\":1}";
    RawClient.Reply ok =
        fx.raw()
            .call("POST", "/$batch")
            .body(partsWithHeaders(insert, merge).getBytes(), "multipart/mixed; boundary=batch_x")
            .send();
    assertThat(ok.status()).isEqualTo(202);
    assertThat(ok.body())
        .doesNotContain("Content-ID")
        .containsPattern("HTTP/1.1 204 No Content\r\n(?:[^\r\n]+\r\n)*DataServiceVersion: 3.0;")
        .containsPattern(
            "HTTP/1.1 204 No Content\r\n(?:[^\r\n]+\r\n)*DataServiceVersion: 1.0;\r\nETag");
    RawClient.Reply failed =
        fx.raw()
            .call("POST", "/$batch")
            .body(partsWithHeaders(insert).getBytes(), "multipart/mixed; boundary=batch_x")
            .send();
    assertThat(failed.body()).contains("HTTP/1.1 409 Conflict").doesNotContain("Content-ID");
  }

  /** A change set of parts that each give their own MIME headers after the framing ones. */
  private static String partsWithHeaders(String... parts) {
    StringBuilder body =
        new StringBuilder("--batch_x\r\nContent-Type: multipart/mixed; boundary=cs_x\r\n\r\n");
    for (String part : parts) {
      body.append(
              "--cs_x\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n")
          .append(part)
          .append("\r\n");
    }
    return body.append("--cs_x--\r\n--batch_x--\r\n").toString();
  }

  static String batch(String table, String... operations) {
    return partsWithHeaders(
        java.util.Arrays.stream(operations)
            .map(operation -> "\r\n" + operation)
            .toArray(String[]::new));
  }
}
