package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient.Reply;
import dev.trestle.testing.DatabaseTest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The extensions' resources ({@code /$count}, {@code /$changes}) are no entity operations: inside a
 * {@code $batch}, in a change set or as its query, they are refused as the batch refuses every
 * other resource that is not an entity (400 InvalidInput), never a server error, and nothing of the
 * change set is written.
 */
class ExtensionsInBatchHttpTest extends ServerTest {

  private Reply send(String body) {
    return fx.raw()
        .call("POST", "/$batch")
        .body(body.getBytes(StandardCharsets.UTF_8), "multipart/mixed; boundary=batch_x")
        .send();
  }

  private String insert(String table) {
    return "POST "
        + fx.endpoint()
        + "/"
        + table
        + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
        + "{\"PartitionKey\":\"p\",\"RowKey\":\"new\"}";
  }

  @DatabaseTest
  void countAndChangesInAChangeSetAreInvalidInput(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("batchext");
    String name = table.getTableName();
    String base = fx.endpoint() + "/" + name;
    for (String operation :
        List.of(
            "POST " + base + "()/$changes HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{}",
            "PUT " + base + "()/$changes?trestle-entities=true HTTP/1.1\r\n\r\n",
            "DELETE " + base + "()/$changes HTTP/1.1\r\n\r\n",
            "POST " + base + "()/$count HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{}",
            "PUT "
                + base
                + "(PartitionKey='p',RowKey='r')/$count HTTP/1.1\r\n"
                + "Content-Type: application/json\r\n\r\n{}",
            "DELETE "
                + base
                + "(PartitionKey='p',RowKey='r')/$count HTTP/1.1\r\nIf-Match: *\r\n\r\n")) {
      Reply reply = send(BatchTest.batch(name, insert(name), operation));

      assertThat(reply.status()).as(operation).isEqualTo(202);
      assertThat(reply.body()).as(operation).contains("HTTP/1.1 400").contains("InvalidInput");
      assertThat(table.listEntities().stream().count()).as(operation).isZero();
    }
  }

  @DatabaseTest
  void countAndChangesAsTheBatchQueryAreInvalidInput(TableService tables) {
    start(tables);
    String name = fx.newTable("batchextq").getTableName();
    for (String target :
        List.of("()/$count", "(PartitionKey='p',RowKey='r')/$count", "()/$changes")) {
      String body =
          "--batch_x\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
              + "GET "
              + fx.endpoint()
              + "/"
              + name
              + target
              + " HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n\r\n--batch_x--\r\n";

      Reply reply = send(body);

      assertErrorCode(reply, 400, "InvalidInput");
    }
  }
}
