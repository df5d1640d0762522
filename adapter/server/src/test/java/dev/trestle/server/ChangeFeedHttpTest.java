package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.RawClient.Reply;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

class ChangeFeedHttpTest extends ServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static JsonNode json(Reply reply) throws Exception {
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return JSON.readTree(reply.body());
  }

  private static List<String> described(JsonNode page) {
    List<String> changes = new ArrayList<>();
    for (JsonNode change : page.get("changes")) {
      changes.add(
          change.get("kind").asText()
              + " "
              + change.get("PartitionKey").asText()
              + "/"
              + change.get("RowKey").asText());
    }
    return changes;
  }

  private Reply changes(String table, String from, String more) {
    return fx.raw()
        .call(
            "GET",
            "/" + table + "()/$changes?" + (from == null ? "" : "trestle-from=" + enc(from)) + more)
        .send();
  }

  private String enable(String table, String options) throws Exception {
    Reply enabled = fx.raw().call("PUT", "/" + table + "()/$changes?" + options).send();
    return json(enabled).get("next").asText();
  }

  @DatabaseTest
  void readsEveryKindOfWriteInOrderAndResumes(TableService tables) throws Exception {
    start(tables);
    TableClient table = fx.newTable("feed");
    String name = table.getTableName();
    String start = enable(name, "trestle-entities=true");

    table.createEntity(new TableEntity("p", "a").addProperty("N", 1));
    table.upsertEntity(new TableEntity("p", "a").addProperty("M", 2));
    table.updateEntity(
        new TableEntity("p", "a").addProperty("N", 3), TableEntityUpdateMode.REPLACE);
    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("q", "x")),
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("q", "y"))));
    table.deleteEntity("p", "a");
    assertThat(
            fx.raw()
                .call("DELETE", "/" + name + "()?trestle-delete=partition&trestle-partition=q")
                .send()
                .status())
        .isEqualTo(200);

    JsonNode all = json(changes(name, start, ""));
    List<String> described = described(all);
    assertThat(described.subList(0, 6))
        .containsExactly(
            "insert p/a", "update p/a", "update p/a", "insert q/x", "insert q/y", "delete p/a");
    assertThat(described.subList(6, 8)).containsExactlyInAnyOrder("delete q/x", "delete q/y");
    JsonNode first = all.get("changes").get(0);
    assertThat(first.get("entity").get("N").asInt()).isEqualTo(1);
    assertThat(first.get("etag").asText()).startsWith("W/");
    assertThat(all.get("changes").get(1).get("entity").get("M").asInt()).isEqualTo(2);
    assertThat(all.get("changes").get(5).has("etag")).isFalse();

    JsonNode two = json(changes(name, start, "&$top=2"));
    assertThat(described(two)).containsExactly("insert p/a", "update p/a");
    Reply rest = changes(name, two.get("next").asText(), "");
    assertThat(rest.header("trestle-next")).isEqualTo(json(rest).get("next").asText());
    assertThat(described(json(rest))).hasSize(6);
  }

  @DatabaseTest
  void aLongPollAnswersWithTheNextChangeAndResumesAfterARestart(TableService tables)
      throws Exception {
    start(tables);
    TableClient table = fx.newTable("feed");
    String name = table.getTableName();
    String start = enable(name, "");
    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(() -> changes(name, start, "&trestle-wait=30"));
    table.createEntity(new TableEntity("p", "a"));
    JsonNode answered = json(waiting.get());
    assertThat(described(answered)).containsExactly("insert p/a");

    table.createEntity(new TableEntity("p", "b")); // not read before the restart
    fx.close();
    start(tables);
    assertThat(described(json(changes(name, answered.get("next").asText(), ""))))
        .containsExactly("insert p/b");
  }

  @DatabaseTest
  void aFailedBatchLeavesNothingAndConcurrentWritersAreReadOnce(TableService tables)
      throws Exception {
    start(tables);
    TableClient table = fx.newTable("feed");
    String name = table.getTableName();
    String start = enable(name, "");
    table.createEntity(new TableEntity("p", "taken"));
    assertThatThrownBy(
            () ->
                table.submitTransaction(
                    List.of(
                        new TableTransactionAction(
                            TableTransactionActionType.CREATE, new TableEntity("p", "new")),
                        new TableTransactionAction(
                            TableTransactionActionType.CREATE, new TableEntity("p", "taken")))))
        .isInstanceOf(TableTransactionFailedException.class);
    assertThat(described(json(changes(name, start, "")))).containsExactly("insert p/taken");

    List<CompletableFuture<Void>> writers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String pk = "w" + w;
      writers.add(
          CompletableFuture.runAsync(
              () -> {
                for (int i = 0; i < 10; i++) {
                  table.upsertEntity(new TableEntity(pk, "r" + i));
                }
              }));
    }
    CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get();
    List<String> read = described(json(changes(name, start, "")));
    assertThat(read).hasSize(41).doesNotHaveDuplicates();
  }

  @DatabaseTest
  void refusesWhatItCannotAnswer(TableService tables) throws Exception {
    start(tables);
    TableClient table = fx.newTable("feed");
    String name = table.getTableName();
    RawClient raw = fx.raw();
    assertError(changes(name, null, ""), 404, "ResourceNotFound");
    enable(name, "trestle-retention=P1D");
    assertError(changes(name, "nonsense", ""), 400, "InvalidInput");
    assertError(changes(name, null, "&trestle-wait=99"), 400, "InvalidQueryParameterValue");
    assertError(
        raw.call("PUT", "/" + name + "()/$changes?trestle-retention=week").send(),
        400,
        "InvalidQueryParameterValue");
    assertError(raw.call("POST", "/" + name + "()/$changes").send(), 405, "MethodNotAllowed");

    String read =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r")));
    String ranged =
        table.generateSas(
            new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r"))
                .setStartPartitionKey("a")
                .setStartRowKey("0")
                .setEndPartitionKey("b")
                .setEndRowKey("z"));
    assertThat(raw.call("GET", "/" + name + "()/$changes?" + read).unsigned().send().status())
        .isEqualTo(200);
    assertError(
        raw.call("GET", "/" + name + "()/$changes?" + ranged).unsigned().send(),
        403,
        "AuthorizationFailure");
    assertThat(raw.call("PUT", "/" + name + "()/$changes?" + read).unsigned().send().status())
        .isEqualTo(403);

    assertThat(raw.call("DELETE", "/" + name + "()/$changes").send().status()).isEqualTo(204);
    assertError(changes(name, null, ""), 404, "ResourceNotFound");
  }

  @DatabaseTest
  void isNotImplementedWithExtensionsOff(TestDatabase database) {
    try (TableService off = database.newServiceWithExtensionsOff()) {
      start(off);
      String name = fx.newTable("feed").getTableName();
      assertError(changes(name, null, ""), 501, "NotImplemented");
      assertError(fx.raw().call("PUT", "/" + name + "()/$changes").send(), 501, "NotImplemented");
    }
  }
}
