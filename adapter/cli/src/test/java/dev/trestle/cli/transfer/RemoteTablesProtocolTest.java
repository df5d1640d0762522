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
  void anInsertIsRetriedWhenThrottledAndReadBackAfterATimeoutThatMayHaveAppliedIt()
      throws Exception {
    TableEntity entity = TableEntity.builder("p", "r").put("N", 1).build();
    String stored =
        "{\"odata.etag\":\"W/\\\"x\\\"\",\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":%d}";
    String path = "/acct/things(PartitionKey='p',RowKey='r')";
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);

      azure.then(Answer.error(503, "ServerBusy")).then(Answer.noContent());
      remote.write("things", entity, EntityWriter.Mode.INSERT);
      assertThat(azure.requests()).containsExactly("POST /acct/things", "POST /acct/things");

      // applied: stored as sent, not sent again
      azure
          .then(Answer.azureError(500, "OperationTimedOut", Map.of()))
          .then(Answer.ok(stored.formatted(1), Map.of()));
      remote.write("things", entity, EntityWriter.Mode.INSERT);
      assertThat(azure.requests()).containsExactly("POST /acct/things", "GET " + path);

      // not applied: sent again
      azure
          .then(Answer.azureError(500, "OperationTimedOut", Map.of()))
          .then(Answer.azureError(404, "ResourceNotFound", Map.of()))
          .then(Answer.noContent());
      remote.write("things", entity, EntityWriter.Mode.INSERT);
      assertThat(azure.requests())
          .containsExactly("POST /acct/things", "GET " + path, "POST /acct/things");

      // another entity under the key: the timeout stands, nothing is sent again
      azure
          .then(Answer.azureError(500, "OperationTimedOut", Map.of()))
          .then(Answer.ok(stored.formatted(2), Map.of()));
      assertThatThrownBy(() -> remote.write("things", entity, EntityWriter.Mode.INSERT))
          .isInstanceOfSatisfying(
              RemoteTables.RemoteException.class,
              e -> {
                assertThat(e.status()).isEqualTo(500);
                assertThat(e.errorCode()).isEqualTo("OperationTimedOut");
                assertThat(e.mayHaveBeenApplied()).isTrue();
              })
          .hasMessageContaining("500 OperationTimedOut");
      assertThat(azure.requests()).containsExactly("POST /acct/things", "GET " + path);

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
  void theErrorCodeIsReadFromTheBodyWhenTheServiceSendsNoHeaderAsAzureDoes() throws Exception {
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);
      azure.then(Answer.azureError(404, "TableNotFound", Map.of()));
      assertThatThrownBy(() -> remote.page("missing", null))
          .isInstanceOfSatisfying(
              RemoteTables.RemoteException.class,
              e -> {
                assertThat(e.status()).isEqualTo(404);
                assertThat(e.errorCode()).isEqualTo("TableNotFound");
              })
          .hasMessageContaining("404 TableNotFound");

      // an upsert answered 500 OperationTimedOut, code in the body only, is retried
      azure.then(Answer.azureError(500, "OperationTimedOut", Map.of())).then(Answer.noContent());
      remote.write("things", TableEntity.builder("p", "r").build(), EntityWriter.Mode.UPSERT);
      assertThat(azure.requests()).hasSize(3);
    }
  }

  @Test
  void creatingATableThatExistsIsDoneButOneBeingDeletedIsRefused() throws Exception {
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);
      azure.then(Answer.azureError(409, "TableAlreadyExists", Map.of()));
      remote.createTableIfNotExists("things");

      azure.then(Answer.azureError(409, "TableBeingDeleted", Map.of()));
      assertThatThrownBy(() -> remote.createTableIfNotExists("things"))
          .isInstanceOfSatisfying(
              RemoteTables.RemoteException.class,
              e -> assertThat(e.errorCode()).isEqualTo("TableBeingDeleted"));
      assertThat(azure.requests()).containsExactly("POST /acct/Tables", "POST /acct/Tables");
    }
  }

  @Test
  void aBatchRefusedAsTooLargeBySomeServiceIsReportedSoItGoesInHalves() throws Exception {
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      RemoteTables remote = RemoteTables.withKey(azure.endpoint(), KEY);
      azure.then(Answer.azureError(413, "RequestBodyTooLarge", Map.of()));
      assertThatThrownBy(
              () ->
                  remote.writeBatch(
                      "things",
                      List.of(
                          TableEntity.builder("p", "1").build(),
                          TableEntity.builder("p", "2").build()),
                      EntityWriter.Mode.UPSERT))
          .isInstanceOf(RemoteTables.BatchTooLargeException.class);
      assertThat(azure.requests()).containsExactly("POST /acct/$batch");
    }
  }

  @Test
  void retriesTheStatusesTheAzureSdkRetriesButAnInsertOnlyWhenSurelyUnapplied() {
    // azure-core's RetryStrategy.shouldRetry: 408, 429 and every 5xx but 501 and 505
    for (int status : List.of(408, 429, 500, 502, 503, 504, 507)) {
      assertThat(RemoteTables.retryable(status, RemoteTables.Retry.ANY_TRANSIENT))
          .as("%d", status)
          .isTrue();
    }
    for (int status : List.of(400, 403, 404, 409, 412, 413, 501, 505)) {
      assertThat(RemoteTables.retryable(status, RemoteTables.Retry.ANY_TRANSIENT))
          .as("%d", status)
          .isFalse();
    }
    assertThat(RemoteTables.retryable(503, RemoteTables.Retry.UNAPPLIED_ONLY)).isTrue();
    assertThat(RemoteTables.retryable(429, RemoteTables.Retry.UNAPPLIED_ONLY)).isTrue();
    assertThat(RemoteTables.retryable(500, RemoteTables.Retry.UNAPPLIED_ONLY)).isFalse();
    assertThat(RemoteTables.retryable(408, RemoteTables.Retry.UNAPPLIED_ONLY)).isFalse();
  }

  @Test
  void readsEveryRetryAfterFormTheAzureSdkReads() throws Exception {
    String inTenSeconds =
        java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
            java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(10));
    try (FakeTableEndpoint azure = new FakeTableEndpoint()) {
      azure
          .then(Answer.azureError(503, "ServerBusy", Map.of("x-ms-retry-after-ms", "1500")))
          .then(Answer.azureError(503, "ServerBusy", Map.of("retry-after-ms", "700")))
          .then(Answer.azureError(503, "ServerBusy", Map.of("Retry-After", "3")))
          .then(Answer.azureError(503, "ServerBusy", Map.of("Retry-After", inTenSeconds)))
          .then(Answer.azureError(503, "ServerBusy", Map.of("Retry-After", "soon")))
          .then(Answer.azureError(503, "ServerBusy", Map.of("Retry-After", "3600")));
      List<Long> delays = new ArrayList<>();
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      for (int i = 0; i < 6; i++) {
        delays.add(
            RemoteTables.serverDelayMillis(
                http.send(
                    java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(azure.endpoint() + "/Tables"))
                        .build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding())));
      }
      assertThat(delays.subList(0, 3)).containsExactly(1500L, 700L, 3000L);
      assertThat(delays.get(3)).isBetween(8_000L, 10_000L);
      assertThat(delays.subList(4, 6)).containsExactly(0L, RemoteTables.MAX_RETRY_AFTER_MS);
    }
  }

  @Test
  void theServicesRetryAfterLengthensTheBackOffUpToACap() {
    assertThat(RemoteTables.delayMillis(1, 0)).isBetween(250L, 313L);
    assertThat(RemoteTables.delayMillis(1, 5_000)).isEqualTo(5_000);
    assertThat(RemoteTables.delayMillis(8, 0)).isBetween(10_000L, 12_500L);
  }
}
