package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server as its own process with a 256 MB heap, over entities of about half a megabyte each (15
 * string properties of 32,000 characters): several clients query the whole table at once, each
 * following continuations to the end. Every page is answered 200, each client reads every entity
 * exactly once, and the server never runs out of memory, whatever the size of the table: what one
 * request holds is bounded, not the page it asks for.
 */
class LargePagesMemoryTest {
  private static final Logger log = LoggerFactory.getLogger(LargePagesMemoryTest.class);
  private static final int ENTITIES = 320;
  private static final int PROPERTIES = 15;
  private static final int CHARACTERS = 32_000;
  private static final int CLIENTS = 5;

  @TempDir Path dir;

  @Test
  void wholeTableQueriesOfHalfMegabyteEntitiesOnH2AreAllAnsweredWithinASmallHeap()
      throws Exception {
    queryEverythingAtOnce(
        "H2", new ServerProcess(dir, "jdbc:h2:file:" + dir.resolve("large/tables")), false);
  }

  @Test
  void wholeTableQueriesOfHalfMegabyteEntitiesOnPostgresqlAreAllAnsweredWithinASmallHeap()
      throws Exception {
    queryEverythingAtOnce(
        "PostgreSQL",
        new ServerProcess(dir, ServerProcess.postgresUrl("trestle_memory_test")),
        true);
  }

  /** {@code dropAfterwards}: the database outlives the test, so the table is deleted at the end. */
  private void queryEverythingAtOnce(String database, ServerProcess server, boolean dropAfterwards)
      throws Exception {
    SignedHttp http = new SignedHttp(server.start());
    String table = "large" + Long.toString(System.nanoTime(), 36);
    try {
      assertThat(http.json("POST", "/Tables", "{\"TableName\":\"" + table + "\"}", null).status())
          .isEqualTo(201);
      long started = System.nanoTime();
      runAll(
          6,
          client -> {
            for (int i = client; i < ENTITIES; i += 6) {
              SignedHttp.Reply reply =
                  http.json(
                      "PUT",
                      "/" + table + "(PartitionKey='p" + (i % 8) + "',RowKey='" + rowKey(i) + "')",
                      largeEntity(),
                      null);
              assertThat(reply.status())
                  .as("upsert of entity %d: %s", i, reply.errorCode())
                  .isEqualTo(204);
            }
          });
      long loaded = System.nanoTime();

      Queue<String> failures = new ConcurrentLinkedQueue<>();
      AtomicLong pages = new AtomicLong();
      AtomicLong largestPage = new AtomicLong();
      List<List<String>> readByClient = Collections.synchronizedList(new ArrayList<>());
      runAll(
          CLIENTS,
          client -> {
            List<String> read = new ArrayList<>();
            String continuation = "";
            do {
              SignedHttp.Reply page =
                  http.send("GET", "/" + table + "()?$top=1000" + continuation, null, null, null);
              if (page.status() != 200) {
                failures.add(page.status() + " " + page.errorCode());
                return;
              }
              pages.incrementAndGet();
              largestPage.accumulateAndGet(page.body().length(), Math::max);
              for (JsonNode entity : page.json().get("value")) {
                assertThat(entity.get("s14").asText()).hasSize(CHARACTERS);
                read.add(entity.get("PartitionKey").asText() + "/" + entity.get("RowKey").asText());
              }
              continuation = page.continuation();
            } while (!continuation.isEmpty());
            readByClient.add(read);
          });
      String serverLog = server.log();
      log.info(
          "{}: {} entities of ~{} KB loaded in {} ms; {} clients read them in {} pages (largest {} KB) in {} ms",
          database,
          ENTITIES,
          PROPERTIES * CHARACTERS / 1024,
          (loaded - started) / 1_000_000,
          CLIENTS,
          pages.get(),
          largestPage.get() / 1024,
          (System.nanoTime() - loaded) / 1_000_000);

      assertThat(failures).as("pages not answered 200").isEmpty();
      assertThat(serverLog).doesNotContain("OutOfMemoryError");
      assertThat(readByClient)
          .hasSize(CLIENTS)
          .allSatisfy(read -> assertThat(read).doesNotHaveDuplicates().hasSize(ENTITIES));
    } finally {
      if (dropAfterwards) {
        http.send("DELETE", "/Tables('" + table + "')", null, null, null);
      }
      server.terminate();
    }
  }

  private static String rowKey(int i) {
    return String.format("r%04d", i);
  }

  /** Fifteen properties of 32,000 random letters, which no database compresses much. */
  private static String largeEntity() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    StringBuilder json = new StringBuilder(PROPERTIES * (CHARACTERS + 16)).append('{');
    for (int p = 0; p < PROPERTIES; p++) {
      json.append(p == 0 ? "" : ",").append("\"s").append(p).append("\":\"");
      for (int c = 0; c < CHARACTERS; c++) {
        json.append((char) ('a' + random.nextInt(26)));
      }
      json.append('"');
    }
    return json.append('}').toString();
  }

  private interface Client {
    void run(int index) throws Exception;
  }

  private static void runAll(int clients, Client task) throws Exception {
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
