package dev.trestle.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableEntity;
import dev.trestle.cli.transfer.FakeTableEndpoint.Answer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The copy's Table client against an endpoint that answers as Azure may (protocol reference
 * table-rest.md, 8.6 and 10): continuation tokens followed through empty pages and resent with the
 * query, throttling and timeouts retried only where a write cannot be applied twice, the service's
 * Retry-After obeyed, a refused batch reported with the failing operation's index.
 */
class RemoteTablesProtocolTest {
  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
  private static final String ENTITY = "{\"PartitionKey\":\"p 1\",\"RowKey\":\"%s\",\"N\":1}";

  private static String page(String... rowKeys) {
    List<String> entities = new ArrayList<>();
    for (String rowKey : rowKeys) {
      entities.add(ENTITY.formatted(rowKey));
    }
    return "{\"value\":[" + String.join(",", entities) + "]}";
  }

  @Test
  void followsContinuationsThroughThrottlingAndEmptyPagesResendingTheFilter() throws Exception {
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      azure
          .then(
              Answer.ok(
                  page("a", "b"),
                  Map.of(
                      "x-ms-continuation-NextPartitionKey", "1!8!cCAx",
                      "x-ms-continuation-NextRowKey", "1!4!cg/+")))
          .then(
              new Answer(
                  503,
                  Map.of("x-ms-error-code", "ServerBusy", "Retry-After", "0"),
                  "{\"odata.error\":{\"code\":\"ServerBusy\"}}"))
          .then(Answer.ok(page(), Map.of("x-ms-continuation-NextPartitionKey", "1!4!cDI-")))
          .then(Answer.ok(page("c"), Map.of()));
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);

      List<String> rowKeys = new ArrayList<>();
      String continuation = null;
      int pages = 0;
      do {
        RemoteTables.Page page = remote.page("things", "N eq 1", continuation);
        page.entities().forEach(e -> rowKeys.add(e.rowKey()));
        continuation = page.continuation().orElse(null);
        pages++;
      } while (continuation != null);

      assertThat(rowKeys).containsExactly("a", "b", "c");
      assertThat(pages).isEqualTo(3);
      String filter = "/acct/things()?$filter=N%20eq%201";
      assertThat(azure.requests())
          .containsExactly(
              "GET " + filter,
              "GET " + filter + "&NextPartitionKey=1%218%21cCAx&NextRowKey=1%214%21cg%2F%2B",
              "GET " + filter + "&NextPartitionKey=1%218%21cCAx&NextRowKey=1%214%21cg%2F%2B",
              "GET " + filter + "&NextPartitionKey=1%214%21cDI-");
    }
  }

  @Test
  void anInsertIsRetriedWhenThrottledButNeverAfterATimeoutThatMayHaveAppliedIt() throws Exception {
    TableEntity entity = TableEntity.builder("p", "r").put("N", 1).build();
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);

      azure.then(Answer.error(503, "ServerBusy")).then(Answer.noContent());
      remote.write("things", entity, EntityWriter.Mode.INSERT);
      assertThat(azure.requests()).containsExactly("POST /acct/things", "POST /acct/things");

      azure.then(Answer.error(500, "OperationTimedOut"));
      assertThatThrownBy(() -> remote.write("things", entity, EntityWriter.Mode.INSERT))
          .isInstanceOfSatisfying(
              RemoteTables.RemoteException.class,
              e -> {
                assertThat(e.status()).isEqualTo(500);
                assertThat(e.errorCode()).isEqualTo("OperationTimedOut");
              })
          .hasMessageContaining("500 OperationTimedOut");
      assertThat(azure.requests()).containsExactly("POST /acct/things");

      // an upsert applied twice is applied once: it is retried after a timeout
      azure.then(Answer.error(500, "OperationTimedOut")).then(Answer.noContent());
      remote.write("things", entity, EntityWriter.Mode.UPSERT);
      assertThat(azure.requests()).hasSize(2).allMatch(r -> r.startsWith("PUT /acct/things("));
    }
  }

  @Test
  void aRefusedBatchNamesTheFailingOperationAndAThrottledOneIsRetried() throws Exception {
    String refused =
        "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n"
            + "--changesetresponse_1\r\nContent-Type: application/http\r\n\r\n"
            + "HTTP/1.1 409 Conflict\r\nContent-Type: application/json\r\n\r\n"
            + "{\"odata.error\":{\"code\":\"EntityAlreadyExists\",\"message\":{\"value\":"
            + "\"1:The specified entity already exists.\"}}}\r\n"
            + "--changesetresponse_1--\r\n--batchresponse_1--\r\n";
    List<TableEntity> entities =
        List.of(
            TableEntity.builder("p", "1").put("N", 1).build(),
            TableEntity.builder("p", "2").put("N", 2).build());
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);
      azure
          .then(Answer.error(503, "ServerBusy"))
          .then(
              new Answer(
                  202,
                  Map.of("Content-Type", "multipart/mixed; boundary=batchresponse_1"),
                  refused));
      assertThatThrownBy(() -> remote.writeBatch("things", entities, EntityWriter.Mode.INSERT))
          .isInstanceOfSatisfying(
              RemoteTables.BatchRefusedException.class, e -> assertThat(e.index()).isEqualTo(1))
          .hasMessage("409 EntityAlreadyExists");
      assertThat(azure.requests()).containsExactly("POST /acct/$batch", "POST /acct/$batch");
    }
  }

  @Test
  void theServicesRetryAfterLengthensTheBackOffUpToACap() {
    assertThat(RemoteTables.delayMillis(1, 0)).isBetween(250L, 313L);
    assertThat(RemoteTables.delayMillis(1, 5_000)).isEqualTo(5_000);
    assertThat(RemoteTables.delayMillis(8, 0)).isBetween(10_000L, 12_500L);
  }
}
