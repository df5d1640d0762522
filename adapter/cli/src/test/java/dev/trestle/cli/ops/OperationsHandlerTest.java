package dev.trestle.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TablePage;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OperationsHandlerTest {
  private final AtomicBoolean databaseUp = new AtomicBoolean(true);
  private final AtomicBoolean databaseHangs = new AtomicBoolean();
  private final CountDownLatch hangUntil = new CountDownLatch(1);
  private final AtomicInteger queries = new AtomicInteger();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http = HttpClient.newHttpClient();
  private Server server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new OperationsHandler(new TableApiStandIn(), new HealthCheck(tableService()), registry));
    server.start();
    base = "http://127.0.0.1:" + connector.getLocalPort();
  }

  @AfterEach
  void stop() throws Exception {
    hangUntil.countDown();
    server.stop();
  }

  @Test
  void healthIsUpWhileTheDatabaseAnswers() throws Exception {
    HttpResponse<String> response = get("/health");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{\"status\":\"UP\",\"database\":\"UP\"}");
  }

  @Test
  void healthIsDownWith503WhenTheDatabaseFails() throws Exception {
    databaseUp.set(false);
    HttpResponse<String> response = get("/health");
    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body())
        .contains("\"database\":\"DOWN\"")
        .contains("IllegalStateException")
        .doesNotContain("secret");
  }

  @Test
  void healthIsDownWith503WithinASecondWhenTheDatabaseHangs() throws Exception {
    databaseHangs.set(true);
    long start = System.nanoTime();
    HttpResponse<String> response = get("/health");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body()).contains("\"database\":\"DOWN\"").contains("TimeoutException");
    assertThat(millis).isLessThan(1000);
  }

  /**
   * Checks while one query hangs wait for it instead of starting more: a hung database holds one
   * thread.
   */
  @Test
  void healthChecksShareTheQueryInFlightWhileTheDatabaseHangs() throws Exception {
    databaseHangs.set(true);
    for (int i = 0; i < 3; i++) {
      assertThat(get("/health").statusCode()).isEqualTo(503);
    }
    assertThat(queries).hasValue(1);

    hangUntil.countDown();
    assertThat(get("/health").statusCode()).isEqualTo(200);
  }

  /**
   * Over the real Table API: the server tells the metrics each request's operation, as its router
   * decided it.
   */
  @Test
  void metricsCountRequestsByOperationAndStatus() throws Exception {
    try (TableService tables =
            TableService.builder()
                .jdbcUrl("jdbc:h2:mem:ops-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
                .build();
        TrestleServer api =
            TrestleServer.builder(tables)
                .port(0)
                .allowAnonymous(true)
                .requestListener(new RequestMetrics(registry))
                .wrapHandler(
                    handler -> new OperationsHandler(handler, new HealthCheck(tables), registry))
                .build()
                .start()) {
      base = "http://127.0.0.1:" + api.port();
      countRequestsByOperationAndStatus();
    }
  }

  private void countRequestsByOperationAndStatus() throws Exception {
    get("/devstoreaccount1/Tables");
    get("/devstoreaccount1/Tables");
    get("/devstoreaccount1/missing(PartitionKey='a',RowKey='b')");

    HttpResponse<String> response = get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    assertThat(response.body())
        .contains("trestle_requests_seconds_count{operation=\"QueryTables\",status=\"200\"} 2")
        .contains("trestle_requests_seconds_count{operation=\"GetEntity\",status=\"404\"} 1")
        .contains(
            "trestle_requests_seconds_bucket{operation=\"QueryTables\",status=\"200\",le=\"0.005\"}")
        .contains("trestle_requests_active");
  }

  @Test
  void accountPathsNamedLikeTheEndpointsStillReachTheTableApi() throws Exception {
    HttpResponse<String> response = get("/health/Tables");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("table api");
    assertThat(get("/metrics?restype=service&comp=properties").body()).isEqualTo("table api");
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Answers 200 for table listings and 404 for everything else, like a server with no entities. */
  private static final class TableApiStandIn extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      boolean tables =
          request.getHttpURI().getPath().endsWith("/Tables")
              || request.getHttpURI().getQuery() != null;
      response.setStatus(tables ? 200 : 404);
      response.write(true, java.nio.ByteBuffer.wrap("table api".getBytes()), callback);
      return true;
    }
  }

  private TableService tableService() {
    return (TableService)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {TableService.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("queryTables")) {
                throw new UnsupportedOperationException(method.getName());
              }
              queries.incrementAndGet();
              if (databaseHangs.get()) {
                hangUntil.await(30, TimeUnit.SECONDS);
              }
              if (!databaseUp.get()) {
                throw new IllegalStateException("connection to secret-host refused");
              }
              return new TablePage(List.of(), Optional.empty());
            });
  }
}
