package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerCluster;
import dev.trestle.server.support.ServerCluster.Deployment;
import dev.trestle.server.support.ServerFixture;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Three servers, each with its own pool, on one database (H2, PostgreSQL in a schema of the test's
 * own, PostgreSQL through PgBouncer in transaction mode), driven together: what one server
 * acknowledges, the others see and respect.
 */
class MultiServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NO_METADATA = "application/json;odata=nometadata";

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void contendedIfMatchUpdatesThroughThreeServersLoseNothing(Deployment deployment)
      throws Exception {
    int entities = 3;
    int clients = 9;
    int updatesPerClient = 15;
    try (ServerCluster cluster = ServerCluster.start(deployment, 3, 4)) {
      String table = ServerFixture.uniqueName("contended");
      cluster.server(0).sdk().createTable(table);
      for (int e = 0; e < entities; e++) {
        assertThat(
                cluster
                    .server(e)
                    .raw()
                    .call("POST", "/" + table)
                    .json(counter(e, 0))
                    .send()
                    .status())
            .isEqualTo(201);
      }
      AtomicInteger acknowledged = new AtomicInteger();
      AtomicInteger conflicts = new AtomicInteger();
      List<String> unexpected = new ArrayList<>();
      runAll(
          clients,
          client -> {
            int done = 0;
            int attempt = 0;
            while (done < updatesPerClient) {
              attempt++;
              // read through one server, write through the next: every update crosses servers
              RawClient reader = cluster.server(client + attempt).raw();
              RawClient writer = cluster.server(client + attempt + 1).raw();
              int entity = (client + done) % entities;
              String path = entityPath(table, "p", "c" + entity);
              RawClient.Reply read = reader.call("GET", path).header("Accept", NO_METADATA).send();
              if (read.status() != 200) {
                record(unexpected, "GET " + read.status() + " " + read.body());
                continue;
              }
              int count = JSON.readTree(read.body()).get("Count").asInt();
              RawClient.Reply update =
                  writer
                      .call("PUT", path)
                      .header("If-Match", read.header("ETag"))
                      .json(counter(entity, count + 1))
                      .send();
              if (update.status() == 204) {
                acknowledged.incrementAndGet();
                done++;
              } else if (update.status() == 412) {
                conflicts.incrementAndGet();
              } else {
                record(unexpected, "PUT " + update.status() + " " + update.body());
              }
            }
          });
      assertThat(unexpected).as("answers other than 200, 204 and 412").isEmpty();
      int total = 0;
      for (int e = 0; e < entities; e++) {
        RawClient.Reply read =
            cluster
                .server(e + 1)
                .raw()
                .call("GET", entityPath(table, "p", "c" + e))
                .header("Accept", NO_METADATA)
                .send();
        total += JSON.readTree(read.body()).get("Count").asInt();
      }
      assertThat(acknowledged.get()).isEqualTo(clients * updatesPerClient);
      assertThat(total).as("the sum of the acknowledged updates").isEqualTo(acknowledged.get());
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void concurrentBatchesOnOnePartitionThroughThreeServersApplyWhole(Deployment deployment)
      throws Exception {
    int clients = 6;
    int batchesPerClient = 4;
    int rows = 20;
    try (ServerCluster cluster = ServerCluster.start(deployment, 3, 4)) {
      String table = ServerFixture.uniqueName("batches");
      cluster.server(0).sdk().createTable(table);
      List<String> unexpected = new ArrayList<>();
      runAll(
          clients,
          client -> {
            for (int b = 0; b < batchesPerClient; b++) {
              String batch = client + "-" + b;
              List<String> operations = new ArrayList<>();
              for (int r = 0; r < rows; r++) {
                // every batch replaces the same rows of one shared partition, and inserts rows of
                // its own into another
                operations.add(
                    Batches.upsert(
                        table,
                        "shared",
                        "r" + r,
                        "{\"PartitionKey\":\"shared\",\"RowKey\":\"r"
                            + r
                            + "\",\"Batch\":\""
                            + batch
                            + "\"}"));
              }
              RawClient.Reply shared = Batches.send(cluster.server(client + b), operations);
              if (shared.status() != 202 || !shared.body().contains("204 No Content")) {
                record(unexpected, "shared batch " + shared.status() + " " + shared.body());
              }
              List<String> inserts = new ArrayList<>();
              for (int r = 0; r < rows; r++) {
                inserts.add(
                    Batches.insert(
                        table,
                        "{\"PartitionKey\":\"own"
                            + client
                            + "\",\"RowKey\":\"b"
                            + b
                            + "r"
                            + r
                            + "\",\"Batch\":\""
                            + batch
                            + "\"}"));
              }
              RawClient.Reply own = Batches.send(cluster.server(client + b + 1), inserts);
              if (own.status() != 202 || !own.body().contains("201 Created")) {
                record(unexpected, "own batch " + own.status() + " " + own.body());
              }
            }
          });
      assertThat(unexpected).isEmpty();
      List<JsonNode> all = queryAll(cluster, table, "", 1000);
      Set<String> sharedBatches = new HashSet<>();
      int own = 0;
      for (JsonNode entity : all) {
        if (entity.get("PartitionKey").asText().equals("shared")) {
          sharedBatches.add(entity.get("Batch").asText());
        } else {
          own++;
        }
      }
      assertThat(all.size() - own).isEqualTo(rows);
      assertThat(sharedBatches)
          .as("the rows of the shared partition come from one batch")
          .hasSize(1);
      assertThat(own).isEqualTo(clients * batchesPerClient * rows);
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void tableCreateAndDeleteRacesHaveOneWinnerEachAndNoServerError(Deployment deployment)
      throws Exception {
    int clients = 6;
    int rounds = 4;
    try (ServerCluster cluster = ServerCluster.start(deployment, 3, 4)) {
      Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
      for (int round = 0; round < rounds; round++) {
        String table = ServerFixture.uniqueName("race");
        runAll(
            clients,
            client -> {
              RawClient.Reply created =
                  cluster
                      .server(client)
                      .raw()
                      .call("POST", "/Tables")
                      .json("{\"TableName\":\"" + table + "\"}")
                      .send();
              count(answers, "create " + created.status());
              // writers race the deletes below: an insert lands or finds no table
              RawClient.Reply inserted =
                  cluster
                      .server(client + 1)
                      .raw()
                      .call("POST", "/" + table)
                      .json("{\"PartitionKey\":\"p\",\"RowKey\":\"r" + client + "\"}")
                      .send();
              count(answers, "insert " + inserted.status());
              RawClient.Reply deleted =
                  cluster
                      .server(client + 2)
                      .raw()
                      .call("DELETE", "/Tables('" + table + "')")
                      .send();
              count(answers, "delete " + deleted.status());
            });
        assertThat(
                cluster.server(round).raw().call("GET", "/Tables('" + table + "')").send().status())
            .isEqualTo(404);
      }
      Map<String, Integer> seen = new java.util.TreeMap<>();
      answers.forEach((answer, n) -> seen.put(answer, n.get()));
      assertThat(seen.keySet())
          .as("answers")
          .allMatch(answer -> answer.matches("create (201|409)|insert (201|404)|delete (204|404)"));
      // a table deleted within the round may be created again by a late client, so a round has at
      // least one winner of each and as many deletes as creates
      assertThat(seen.getOrDefault("create 201", 0)).isBetween(rounds, rounds * clients);
      assertThat(seen.getOrDefault("delete 204", 0)).isEqualTo(seen.get("create 201"));
      assertThat(
              cluster.count(
                  "SELECT count(*) FROM trestle_entity"
                      + " WHERE table_id NOT IN (SELECT id FROM trestle_table)"))
          .as("entities left without their table")
          .isZero();
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void continuationTokensFromOneServerResumeOnAnother(Deployment deployment) throws Exception {
    try (ServerCluster cluster = ServerCluster.start(deployment, 3, 4)) {
      String table = ServerFixture.uniqueName("paging");
      cluster.server(0).sdk().createTable(table);
      int partitions = 7;
      int perPartition = 45;
      for (int p = 0; p < partitions; p++) {
        List<String> inserts = new ArrayList<>();
        for (int r = 0; r < perPartition; r++) {
          inserts.add(
              Batches.insert(
                  table,
                  "{\"PartitionKey\":\"p"
                      + p
                      + "\",\"RowKey\":\""
                      + String.format("r%03d", r)
                      + "\",\"N\":"
                      + r
                      + "}"));
        }
        assertThat(Batches.send(cluster.server(p), inserts).status()).isEqualTo(202);
      }
      List<JsonNode> all = queryAll(cluster, table, "", 40);
      assertThat(all).hasSize(partitions * perPartition);
      List<String> keys = new ArrayList<>();
      for (JsonNode entity : all) {
        keys.add(entity.get("PartitionKey").asText() + "/" + entity.get("RowKey").asText());
      }
      assertThat(keys).doesNotHaveDuplicates().isSorted();
      List<JsonNode> filtered = queryAll(cluster, table, "N ge 40 or RowKey eq 'r007'", 3);
      assertThat(filtered).hasSize(partitions * 6);
    }
  }

  /**
   * A server whose clock is an hour behind the one that wrote an entity still gives each write of
   * it a later Timestamp and a new ETag. The servers of one JVM share one clock, so the entity's
   * stored version is set an hour ahead, as a server with a clock an hour fast would have written
   * it; the writes then go through the servers whose clocks are an hour behind that one.
   */
  @ParameterizedTest(name = "[{0}]")
  @EnumSource(Deployment.class)
  void writesThroughAServerWithAClockAnHourBehindGiveLaterTimestampsAndNewETags(
      Deployment deployment) throws Exception {
    try (ServerCluster cluster = ServerCluster.start(deployment, 3, 2)) {
      String table = ServerFixture.uniqueName("skewed");
      cluster.server(0).sdk().createTable(table);
      String path = entityPath(table, "p", "r");
      assertThat(
              cluster
                  .server(0)
                  .raw()
                  .call("POST", "/" + table)
                  .json("{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":0}")
                  .send()
                  .status())
          .isEqualTo(201);
      long hour = 36_000_000_000L;
      assertThat(
              cluster.execute(
                  "UPDATE trestle_entity SET ticks = ticks + "
                      + hour
                      + " WHERE table_id = (SELECT id FROM trestle_table WHERE account = '"
                      + cluster.account()
                      + "' AND name_key = '"
                      + table.toLowerCase(java.util.Locale.ROOT)
                      + "')"))
          .isEqualTo(1);
      Set<String> etags = new HashSet<>();
      RawClient.Reply first =
          cluster.server(1).raw().call("GET", path).header("Accept", NO_METADATA).send();
      String etag = first.header("ETag");
      java.time.Instant timestamp = timestamp(cluster, path, 1);
      assertThat(timestamp).isAfter(java.time.Instant.now().plusSeconds(3000));
      etags.add(etag);
      for (int write = 1; write <= 6; write++) {
        ServerFixture server = cluster.server(write);
        String body = "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":" + write + "}";
        RawClient.Reply reply =
            switch (write % 3) {
              case 0 -> server.raw().call("PUT", path).header("If-Match", etag).json(body).send();
              case 1 -> server.raw().call("MERGE", path).header("If-Match", etag).json(body).send();
              default -> Batches.send(server, List.of(Batches.merge(table, "p", "r", etag, body)));
            };
        assertThat(reply.status()).as(reply.body()).isIn(202, 204);
        java.time.Instant later = timestamp(cluster, path, write + 1);
        String newETag =
            cluster
                .server(write + 1)
                .raw()
                .call("GET", path)
                .header("Accept", NO_METADATA)
                .send()
                .header("ETag");
        assertThat(later).as("write %d's Timestamp", write).isAfter(timestamp);
        assertThat(etags.add(newETag)).as("write %d's ETag %s is new", write, newETag).isTrue();
        if (write % 3 != 2) {
          assertThat(reply.header("ETag")).isEqualTo(newETag);
        }
        timestamp = later;
        etag = newETag;
      }
      // an upsert without If-Match too
      RawClient.Reply upsert =
          cluster
              .server(2)
              .raw()
              .call("PUT", path)
              .json("{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":9}")
              .send();
      assertThat(upsert.status()).isEqualTo(204);
      assertThat(etags).doesNotContain(upsert.header("ETag"));
      assertThat(timestamp(cluster, path, 0)).isAfter(timestamp);
    }
  }

  private static java.time.Instant timestamp(ServerCluster cluster, String path, int server)
      throws Exception {
    RawClient.Reply read =
        cluster.server(server).raw().call("GET", path).header("Accept", NO_METADATA).send();
    assertThat(read.status()).isEqualTo(200);
    return java.time.Instant.parse(JSON.readTree(read.body()).get("Timestamp").asText());
  }

  /**
   * Pages through a query, asking each page of the next server with the previous page's
   * continuation.
   */
  private static List<JsonNode> queryAll(
      ServerCluster cluster, String table, String filter, int top) throws Exception {
    List<JsonNode> entities = new ArrayList<>();
    String next = "";
    int page = 0;
    do {
      String query =
          "/"
              + table
              + "()?$top="
              + top
              + (filter.isEmpty() ? "" : "&$filter=" + encode(filter))
              + next;
      RawClient.Reply reply =
          cluster.server(page++).raw().call("GET", query).header("Accept", NO_METADATA).send();
      assertThat(reply.status()).as(reply.body()).isEqualTo(200);
      JSON.readTree(reply.body()).get("value").forEach(entities::add);
      String partition = reply.header("x-ms-continuation-NextPartitionKey");
      String row = reply.header("x-ms-continuation-NextRowKey");
      next =
          partition == null
              ? null
              : "&NextPartitionKey="
                  + encode(partition)
                  + (row == null ? "" : "&NextRowKey=" + encode(row));
    } while (next != null);
    return entities;
  }

  static String entityPath(String table, String partition, String row) {
    return "/" + table + "(PartitionKey='" + partition + "',RowKey='" + row + "')";
  }

  private static String counter(int entity, int count) {
    return "{\"PartitionKey\":\"p\",\"RowKey\":\"c" + entity + "\",\"Count\":" + count + "}";
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static void count(Map<String, AtomicInteger> answers, String answer) {
    answers.computeIfAbsent(answer, a -> new AtomicInteger()).incrementAndGet();
  }

  private static void record(List<String> failures, String failure) {
    synchronized (failures) {
      failures.add(failure);
    }
  }

  interface Client {
    void run(int index) throws Exception;
  }

  static void runAll(int clients, Client task) throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        int index = i;
        futures.add(
            pool.submit(
                () -> {
                  task.run(index);
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    }
  }
}
