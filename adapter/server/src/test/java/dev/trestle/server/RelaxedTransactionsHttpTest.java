package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient.Reply;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

class RelaxedTransactionsHttpTest extends ServerTest {
  private static final String RELAXED = "/$batch?trestle-transaction=relaxed";

  private static TableService relaxed(TestDatabase database) {
    return database.newServiceBuilder().relaxedTransactions(true).build();
  }

  private String insert(String table, String partitionKey, String rowKey, String more) {
    return "POST "
        + fx.endpoint()
        + "/"
        + table
        + " HTTP/1.1\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\n\r\n"
        + "{\"PartitionKey\":\""
        + partitionKey
        + "\",\"RowKey\":\""
        + rowKey
        + "\""
        + more
        + "}";
  }

  private List<String> inserts(String table, String partitionKey, int count, String more) {
    List<String> operations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      operations.add(insert(table, partitionKey, String.format("r%04d", i), more));
    }
    return operations;
  }

  private Reply send(String path, List<String> operations) {
    return fx.raw()
        .call("POST", path)
        .body(
            BatchTest.batch("", operations.toArray(String[]::new)).getBytes(StandardCharsets.UTF_8),
            "multipart/mixed; boundary=batch_x")
        .send();
  }

  private long count(TableClient table) {
    return Long.parseLong(
        fx.raw().call("GET", "/" + table.getTableName() + "()/$count").send().body());
  }

  @DatabaseTest
  void holdsMoreThanAHundredOperationsAndFourMebibytes(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      start(service);
      TableClient table = fx.newTable("relaxedbig");
      String large = ",\"S\":\"" + "x".repeat(32_000) + "\"";

      Reply reply = send(RELAXED, inserts(table.getTableName(), "p", 150, large));

      assertThat(reply.status()).isEqualTo(202);
      assertThat(reply.body().split("HTTP/1.1 204 No Content", -1)).hasSize(151);
      assertThat(count(table)).isEqualTo(150);
    }
  }

  @DatabaseTest
  @MultiShardWrites("a relaxed transaction writes partitions of two tables in one transaction")
  void spansPartitionsAndTables(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      start(service);
      TableClient orders = fx.newTable("orders");
      TableClient stock = fx.newTable("stock");
      List<String> operations = new ArrayList<>(inserts(orders.getTableName(), "o1", 2, ""));
      operations.add(insert(orders.getTableName(), "o2", "x", ""));
      operations.add(insert(stock.getTableName(), "s1", "apple", ",\"N\":9"));

      Reply reply = send(RELAXED, operations);

      assertThat(reply.status()).isEqualTo(202);
      assertThat(reply.body()).doesNotContain("odata.error");
      assertThat(count(orders)).isEqualTo(3);
      assertThat(stock.getEntity("s1", "apple").getProperty("N")).isEqualTo(9);
    }
  }

  @DatabaseTest
  @MultiShardWrites("the partitions before the failing one are written, then rolled back")
  void aFailureRollsBackEverythingAndNamesTheFailingOperation(TestDatabase database) {
    try (TableService service = relaxed(database)) {
      start(service);
      TableClient first = fx.newTable("first");
      TableClient second = fx.newTable("second");
      second.createEntity(new TableEntity("z", "taken"));
      List<String> operations = new ArrayList<>(inserts(first.getTableName(), "a", 120, ""));
      operations.add(insert(second.getTableName(), "z", "taken", ""));

      Reply reply = send(RELAXED, operations);

      assertThat(reply.status()).isEqualTo(202);
      assertThat(reply.body())
          .containsOnlyOnce("HTTP/1.1 ")
          .contains("HTTP/1.1 409 Conflict")
          .contains("\"code\":\"EntityAlreadyExists\"")
          .contains("\"value\":\"120:The specified entity already exists.");
      assertThat(count(first)).isZero();
      assertThat(count(second)).isEqualTo(1);
    }
  }

  /** With the mode on or off, a standard $batch keeps Azure's limits and errors. */
  @DatabaseTest
  void aStandardBatchKeepsAzuresLimitsEitherWay(TableService standard, TestDatabase database) {
    try (TableService service = relaxed(database)) {
      for (TableService tables : List.of(standard, service)) {
        start(tables);
        TableClient table = fx.newTable("limits");

        Reply many = send("/$batch", inserts(table.getTableName(), "p", 101, ""));
        assertThat(many.status()).isEqualTo(202);
        assertThat(many.body())
            .contains("\"code\":\"InvalidInput\"")
            .contains("exceeds the maximum 100 changes per change set");
        String large = ",\"S\":\"" + "x".repeat(32_000) + "\"";
        assertError(
            send("/$batch", inserts(table.getTableName(), "p", 150, large)),
            413,
            "RequestBodyTooLarge");
        Reply mixed =
            send(
                "/$batch",
                List.of(
                    insert(table.getTableName(), "a", "1", ""),
                    insert(table.getTableName(), "b", "1", "")));
        assertThat(mixed.body()).contains("\"code\":\"CommandsInBatchActOnDifferentPartitions\"");
        assertThat(count(table)).isZero();
        fx.close();
        fx = null;
      }
    }
  }

  @DatabaseTest
  void isNotImplementedUnlessTheOperatorEnablesIt(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("off");

    assertError(send(RELAXED, inserts(table.getTableName(), "p", 2, "")), 501, "NotImplemented");
    assertError(
        send("/$batch?trestle-transaction=loose", inserts(table.getTableName(), "p", 2, "")),
        400,
        "InvalidQueryParameterValue");
    assertThat(count(table)).isZero();
  }

  @DatabaseTest
  void isNotImplementedWithTheExtensionsOff(TestDatabase database) {
    try (TableService service = database.newServiceWithExtensionsOff()) {
      start(service);
      TableClient table = fx.newTable("extoff");

      assertError(send(RELAXED, inserts(table.getTableName(), "p", 2, "")), 501, "NotImplemented");
      assertThat(table.listEntities().stream().count()).isZero();
    }
  }
}
