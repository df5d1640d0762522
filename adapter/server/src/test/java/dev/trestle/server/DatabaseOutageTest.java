package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableService;
import dev.trestle.server.support.PooledService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.server.support.TcpProxy;
import dev.trestle.server.support.Traffic;
import dev.trestle.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL going away under concurrent writes and queries, seen over HTTP: its backends
 * terminated, the way to it cut or silent for seconds. Every answer is a success or a 503
 * ServerBusy (which the Azure SDKs retry) within about the pool's wait, never a 500; the server
 * heals without a restart, and every acknowledged write is there.
 */
class DatabaseOutageTest extends ServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(2);
  private static final Pattern HOST_PORT =
      Pattern.compile("jdbc:postgresql://([^:/?]+)(?::(\\d+))?/");

  @Test
  void terminatedBackendsOnPostgresqlAnswerServerBusyNeverInternalErrorAndLoseNoAcknowledgedWrite()
      throws Exception {
    TestDatabase database = TestDatabase.get(TestDatabase.Kind.POSTGRESQL);
    String application = ServerFixture.uniqueName("trestle-outage-");
    try (TableService service = PooledService.open(database, application, 4, WAIT)) {
      RawClient raw = start(service).raw();
      String table = createTable(raw);
      Traffic traffic = new Traffic(raw, table, "c").start(6);
      int terminated = 0;
      for (int i = 0; i < 4; i++) {
        Thread.sleep(600);
        terminated += terminateBackends(database, application);
      }
      Thread.sleep(300);
      List<Traffic.Answer> answers = traffic.stop().answers();

      assertThat(terminated).as("backends terminated").isPositive();
      assertThat(answers)
          .as("answers during the terminations")
          .isNotEmpty()
          .allSatisfy(
              answer ->
                  assertThat(answer.success() || answer.serverBusy())
                      .as(answer.toString())
                      .isTrue());
      assertHealed(raw, table);
      assertAcknowledgedWritesAreThere(raw, table, traffic);
    }
  }

  @Test
  void anOutageOnPostgresqlAnswersServerBusyWithinTheWaitAndHealsWithoutRestart() throws Exception {
    TestDatabase database = TestDatabase.get(TestDatabase.Kind.POSTGRESQL);
    try (TcpProxy proxy = proxyTo(database);
        TableService service = throughProxy(database, proxy, 4)) {
      RawClient raw = start(service).raw();
      String table = createTable(raw);
      Traffic before = new Traffic(raw, table, "before").start(4);
      Thread.sleep(500);

      proxy.stop();
      Traffic during = new Traffic(raw, table, "during").start(4);
      RawClient.Reply batch =
          raw.call("POST", "/$batch")
              .body(
                  BatchTest.batch(
                          table,
                          "POST "
                              + fx.endpoint()
                              + "/"
                              + table
                              + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"b\",\"RowKey\":\"r\"}")
                      .getBytes(StandardCharsets.UTF_8),
                  "multipart/mixed; boundary=batch_x")
              .send();
      Thread.sleep(3000);
      proxy.start();
      List<Traffic.Answer> inFlight = before.stop().answers();
      List<Traffic.Answer> refused = during.stop().answers();

      assertThat(inFlight)
          .allSatisfy(
              answer ->
                  assertThat(answer.success() || answer.serverBusy())
                      .as(answer.toString())
                      .isTrue());
      assertThat(refused)
          .as("answers while the database was away")
          .isNotEmpty()
          .allSatisfy(
              answer -> {
                assertThat(answer.success() || answer.serverBusy()).as(answer.toString()).isTrue();
                assertThat(answer.millis()).as(answer.toString()).isLessThan(4000);
              });
      assertThat(refused.stream().filter(Traffic.Answer::serverBusy).count())
          .as("ServerBusy answers in " + refused)
          .isPositive();
      // The whole batch is refused, not answered 202 with a failed operation inside, so that
      // clients retry it.
      assertThat(batch.status()).as(batch.body()).isEqualTo(503);
      assertThat(batch.header("x-ms-error-code")).isEqualTo("ServerBusy");
      assertHealed(raw, table);
      assertAcknowledgedWritesAreThere(raw, table, before);
      assertAcknowledgedWritesAreThere(raw, table, during);
    }
  }

  @Test
  void aNetworkPartitionOnPostgresqlAnswersServerBusyWithinTheWaitAndHealsWithoutRestart()
      throws Exception {
    TestDatabase database = TestDatabase.get(TestDatabase.Kind.POSTGRESQL);
    try (TcpProxy proxy = proxyTo(database);
        TableService service = throughProxy(database, proxy, 8)) {
      RawClient raw = start(service).raw();
      String table = createTable(raw);
      Traffic before = new Traffic(raw, table, "before").start(4);
      Thread.sleep(500);

      proxy.freeze();
      Traffic during = new Traffic(raw, table, "during").start(4);
      Thread.sleep(6000);
      proxy.thaw();
      List<Traffic.Answer> inFlight = before.stop().answers();
      List<Traffic.Answer> refused = during.stop().answers();

      // A query page's statement may run for the page's time (5 s), which the database itself
      // enforces; any other
      // statement is given up after the wait.
      assertThat(inFlight)
          .allSatisfy(
              answer -> {
                assertThat(answer.success() || answer.serverBusy()).as(answer.toString()).isTrue();
                assertThat(answer.millis())
                    .as(answer.toString())
                    .isLessThan(
                        (answer.request().equals("query") ? 5000 : 0) + WAIT.toMillis() + 1500);
              });
      assertThat(refused)
          .as("answers while the network was silent")
          .isNotEmpty()
          .allSatisfy(
              answer -> {
                assertThat(answer.success() || answer.serverBusy()).as(answer.toString()).isTrue();
                assertThat(answer.millis()).as(answer.toString()).isLessThan(4000);
              });
      assertThat(refused.stream().filter(Traffic.Answer::serverBusy).count())
          .as("ServerBusy answers in " + refused)
          .isPositive();
      assertHealed(raw, table);
      assertAcknowledgedWritesAreThere(raw, table, before);
      assertAcknowledgedWritesAreThere(raw, table, during);
    }
  }

  /** A proxy in front of the tests' PostgreSQL. */
  private static TcpProxy proxyTo(TestDatabase database) {
    Matcher target = HOST_PORT.matcher(database.jdbcUrl());
    assertThat(target.find()).as("a host in " + database.jdbcUrl()).isTrue();
    return new TcpProxy(
        target.group(1), target.group(2) == null ? 5432 : Integer.parseInt(target.group(2)));
  }

  /** A service whose own pool reaches the tests' PostgreSQL through the proxy. */
  private static TableService throughProxy(TestDatabase database, TcpProxy proxy, int poolSize) {
    String url =
        HOST_PORT
            .matcher(database.jdbcUrl())
            .replaceFirst("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/");
    String application = ServerFixture.uniqueName("trestle-proxied-");
    return PooledService.openAt(
        database, PooledService.url(database, url, application), poolSize, WAIT);
  }

  private static String createTable(RawClient raw) {
    String table = ServerFixture.uniqueName("outage");
    assertThat(
            raw.call("POST", "/Tables").json("{\"TableName\":\"" + table + "\"}").send().status())
        .isEqualTo(201);
    return table;
  }

  /**
   * Closes this test's connections from the database side, as an administrator or a restart does.
   */
  private static int terminateBackends(TestDatabase database, String application) throws Exception {
    try (Connection admin =
            DriverManager.getConnection(
                database.jdbcUrl(), database.username(), database.password());
        PreparedStatement terminate =
            admin.prepareStatement(
                "select count(pg_terminate_backend(pid))"
                    + " from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
                    + " and application_name = ?")) {
      terminate.setString(1, application);
      try (ResultSet rows = terminate.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }

  /**
   * Within a few seconds of the database being back (the pool replaces its connections), requests
   * succeed again, one after another, without a restart.
   */
  private static void assertHealed(RawClient raw, String table) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (raw.call("GET", "/" + table + "()?$top=1").send().status() != 200) {
      assertThat(System.nanoTime()).as("the server answers again within 10 s").isLessThan(deadline);
      Thread.sleep(100);
    }
    for (int i = 0; i < 20; i++) {
      assertThat(
              raw.call("PUT", "/" + table + "(PartitionKey='healed',RowKey='r" + i + "')")
                  .json("{\"V\":1}")
                  .send()
                  .status())
          .isEqualTo(204);
      assertThat(
              raw.call("GET", "/" + table + "(PartitionKey='healed',RowKey='r" + i + "')")
                  .send()
                  .status())
          .isEqualTo(200);
    }
  }

  /**
   * Every insert answered 201 is stored, and no counter is older than its last acknowledged upsert.
   */
  private static void assertAcknowledgedWritesAreThere(RawClient raw, String table, Traffic traffic)
      throws Exception {
    Set<String> stored = new HashSet<>();
    Map<String, Integer> counters = new HashMap<>();
    String continuation = "";
    do {
      RawClient.Reply page =
          raw.call("GET", "/" + table + "()?$select=PartitionKey,RowKey,V" + continuation)
              .header("Accept", "application/json;odata=nometadata")
              .send();
      assertThat(page.status()).isEqualTo(200);
      for (JsonNode entity : JSON.readTree(page.body()).get("value")) {
        String partition = entity.get("PartitionKey").asText();
        String row = entity.get("RowKey").asText();
        stored.add(partition + "/" + row);
        if (row.equals("counter")) {
          counters.put(partition, entity.get("V").asInt());
        }
      }
      String nextPartition = page.header("x-ms-continuation-NextPartitionKey");
      String nextRow = page.header("x-ms-continuation-NextRowKey");
      continuation =
          nextPartition == null
              ? null
              : "&NextPartitionKey="
                  + nextPartition
                  + (nextRow == null ? "" : "&NextRowKey=" + nextRow);
    } while (continuation != null);
    assertThat(stored).as("acknowledged inserts").containsAll(traffic.acknowledgedRows());
    traffic
        .acknowledgedCounters()
        .forEach(
            (partition, value) ->
                assertThat(counters.get(partition))
                    .as("counter of " + partition)
                    .isNotNull()
                    .isGreaterThanOrEqualTo(value));
  }
}
