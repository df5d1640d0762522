package dev.trestle.server.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.server.events.RequestListener.FinishedRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a request listener hears: the operation the router dispatched to (the names metrics and
 * dashboards use), also for requests refused before they run, with status, duration and request
 * ids. Unsigned requests are refused with 403 after routing, so each is still named.
 */
class RequestListenerTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final BlockingQueue<FinishedRequest> finished = new LinkedBlockingQueue<>();
  private static final AtomicInteger started = new AtomicInteger();
  private static TableService tables;
  private static TrestleServer server;
  private static String base;

  @BeforeAll
  static void start() {
    tables =
        TableService.builder()
            .jdbcUrl("jdbc:h2:mem:listener-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
            .build();
    server =
        TrestleServer.builder(tables)
            .port(0)
            .requestListener(
                new RequestListener() {
                  @Override
                  public void requestStarted() {
                    started.incrementAndGet();
                  }

                  @Override
                  public void requestFinished(FinishedRequest request) {
                    finished.add(request);
                  }
                })
            .build()
            .start();
    base = "http://127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    tables.close();
  }

  @BeforeEach
  void forgetEarlierRequests() {
    finished.clear();
  }

  @ParameterizedTest(name = "{0} {1} ?{2} if-match={3} -> {4}")
  @CsvSource(
      nullValues = "-",
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "GET | /devstoreaccount1/Tables | - | false | QueryTables",
        "POST | /devstoreaccount1/Tables | - | false | CreateTable",
        "DELETE | /devstoreaccount1/Tables('orders') | - | false | DeleteTable",
        "GET | /devstoreaccount1/Tables('orders') | - | false | GetTable",
        "POST | /devstoreaccount1/$batch | - | false | Batch",
        "GET | /devstoreaccount1/orders() | $filter=a%20eq%201 | false | QueryEntities",
        "GET | /devstoreaccount1/orders | - | false | QueryEntities",
        "POST | /devstoreaccount1/orders | - | false | InsertEntity",
        "GET | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | false | GetEntity",
        "PUT | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | true | UpdateEntity",
        "PUT | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | false | InsertOrReplaceEntity",
        "MERGE | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | true | MergeEntity",
        "PATCH | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | false | InsertOrMergeEntity",
        "DELETE | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | true | DeleteEntity",
        "GET | /devstoreaccount1/orders | comp=acl | false | GetTableAcl",
        "PUT | /devstoreaccount1/orders | comp=acl | false | SetTableAcl",
        "GET | /devstoreaccount1/ | restype=service&comp=properties | false | GetServiceProperties",
        "PUT | /devstoreaccount1 | restype=service&comp=properties | false | SetServiceProperties",
        "GET | /devstoreaccount1/ | restype=service&comp=stats | false | GetServiceStats",
        "OPTIONS | /devstoreaccount1/orders() | - | false | Preflight",
        "GET | /devstoreaccount1/a/b | - | false | Other",
        "GET | / | - | false | Other",
      })
  void namesTheTableOperation(
      String method, String path, String query, boolean ifMatch, String expected) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path + (query == null ? "" : "?" + query)))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (ifMatch) {
      request.header("If-Match", "*");
    }
    int status = send(request).statusCode();
    FinishedRequest heard = next();
    assertThat(heard.operation()).isEqualTo(expected);
    assertThat(heard.status()).isEqualTo(status);
    assertThat(heard.method()).isEqualTo(method);
  }

  @Test
  void aTunnelledVerbNamesTheOperationItTunnels() throws Exception {
    send(
        HttpRequest.newBuilder(
                URI.create(base + "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')"))
            .header("X-HTTP-Method", "MERGE")
            .header("If-Match", "*")
            .POST(HttpRequest.BodyPublishers.ofString("{}")));
    FinishedRequest heard = next();
    assertThat(heard.operation()).isEqualTo("MergeEntity");
    assertThat(heard.method()).isEqualTo("POST");
  }

  @Test
  void aRefusedTunnelIsOther() throws Exception {
    send(
        HttpRequest.newBuilder(
                URI.create(base + "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')"))
            .header("X-HTTP-Method", "MERGE,PUT")
            .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(next().operation()).isEqualTo("Other");
  }

  @Test
  void theFinishedRequestCarriesStatusDurationPathAndRequestIds() throws Exception {
    int before = started.get();
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(URI.create(base + "/devstoreaccount1/Tables?sig=secret"))
                .header("x-ms-client-request-id", "client-1")
                .GET());
    FinishedRequest heard = next();
    assertThat(heard.status()).isEqualTo(403).isEqualTo(response.statusCode());
    assertThat(heard.path()).isEqualTo("/devstoreaccount1/Tables");
    assertThat(heard.requestId())
        .isNotBlank()
        .isEqualTo(response.headers().firstValue("x-ms-request-id").orElseThrow());
    assertThat(heard.clientRequestId()).isEqualTo("client-1");
    assertThat(heard.duration()).isPositive();
    assertThat(started.get()).isEqualTo(before + 1);
    assertThat(heard.errorCode())
        .isEqualTo(response.headers().firstValue("x-ms-error-code").orElseThrow());
    assertThat(heard.bytesWritten()).isEqualTo(response.body().length()).isPositive();
    assertThat(heard.query()).isEqualTo("sig=REDACTED");
  }

  @Test
  void everySpellingOfTheSasSignatureIsRedactedAndTheRestOfTheQueryKept() throws Exception {
    send(
        HttpRequest.newBuilder(
                URI.create(
                    base + "/devstoreaccount1/Tables?sv=2019-02-02&SIG=a%2Bb&%73ig=c&sigx=kept&x"))
            .GET());
    FinishedRequest heard = next();
    assertThat(heard.query())
        .isEqualTo("sv=2019-02-02&SIG=REDACTED&%73ig=REDACTED&sigx=kept&x")
        .doesNotContain("a%2Bb");
    assertThat(heard.target()).startsWith("/devstoreaccount1/Tables?sv=");
  }

  @Test
  void aListenerThatThrowsBreaksNeitherTheRequestNorTheOtherListeners() throws Exception {
    BlockingQueue<FinishedRequest> heard = new LinkedBlockingQueue<>();
    try (TrestleServer broken =
        TrestleServer.builder(tables)
            .port(0)
            .requestListener(
                request -> {
                  throw new IllegalStateException("a listener failing on purpose");
                })
            .requestListener(heard::add)
            .build()
            .start()) {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + broken.port() + "/devstoreaccount1/Tables"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(401);
      FinishedRequest request = heard.poll(10, TimeUnit.SECONDS);
      assertThat(request).isNotNull();
      assertThat(request.operation()).isEqualTo("QueryTables");
      assertThat(request.status()).isEqualTo(401);
    }
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The listener hears of a request once its response is sent, which may be just after the client
   * has it.
   */
  private static FinishedRequest next() throws InterruptedException {
    FinishedRequest heard = finished.poll(10, TimeUnit.SECONDS);
    assertThat(heard).as("the listener heard of the request").isNotNull();
    return heard;
  }
}
