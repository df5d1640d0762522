package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.server.support.PooledService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.server.support.Traffic;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many more concurrent scans than the pool has connections: each is answered, 200 or 503 ServerBusy
 * (which the Azure SDKs retry), none 500, and a refused one after one wait for a connection, not
 * after several. The pool has one connection: on two cores an in-process H2 is limited by the CPU
 * before a larger pool runs dry.
 */
class PoolExhaustionTest extends ServerTest {
  private static final Logger log = LoggerFactory.getLogger(PoolExhaustionTest.class);
  private static final Duration WAIT = Duration.ofMillis(500);
  private static final int CLIENTS = 60;
  private static final int SCANS_PER_CLIENT = 2;

  /**
   * Matches nothing, so every scan walks the whole table while holding its connection and answers
   * little.
   */
  private static final String SCAN = "()?$filter=z%20eq%20-1";

  @DatabaseTest
  void scansBeyondASmallPoolAnswerOkOrServerBusyWithinTheWait(TestDatabase database)
      throws Exception {
    try (TableService service =
        PooledService.open(database, ServerFixture.uniqueName("trestle-pool-"), 1, WAIT)) {
      RawClient raw = start(service).raw();
      String table = ServerFixture.uniqueName("pool");
      service.createTable(table);
      for (int p = 0; p < 30; p++) {
        List<TableOperation> batch = new ArrayList<>();
        for (int r = 0; r < 100; r++) {
          batch.add(
              TableOperation.insert(
                  TableEntity.builder("p" + p, "r" + r)
                      .put("text", "x".repeat(2000))
                      .put("z", r)
                      .build()));
        }
        service.tableClient(table).submitTransaction(batch);
      }
      for (int i = 0; i < 3; i++) {
        assertThat(raw.call("GET", "/" + table + SCAN).send().status()).isEqualTo(200); // warmed up
      }

      Queue<Traffic.Answer> answers = new ConcurrentLinkedQueue<>();
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      awaitQuietly(go);
                      for (int i = 0; i < SCANS_PER_CLIENT; i++) {
                        long started = System.nanoTime();
                        RawClient.Reply reply = raw.call("GET", "/" + table + SCAN).send();
                        answers.add(
                            new Traffic.Answer(
                                "scan",
                                reply.status(),
                                reply.header("x-ms-error-code"),
                                (System.nanoTime() - started) / 1_000_000));
                      }
                    }));
      }
      go.countDown();
      for (Thread client : clients) {
        client.join();
      }

      log.info(
          "{} scans over a pool of one connection on {}: {} ServerBusy, slowest {} ms",
          answers.size(),
          database.kind(),
          answers.stream().filter(Traffic.Answer::serverBusy).count(),
          answers.stream().mapToLong(Traffic.Answer::millis).max().orElse(0));
      assertThat(answers)
          .hasSize(CLIENTS * SCANS_PER_CLIENT)
          .allSatisfy(
              answer -> {
                assertThat(answer.status() == 200 || answer.serverBusy())
                    .as(answer.toString())
                    .isTrue();
                if (answer.serverBusy()) {
                  assertThat(answer.millis())
                      .as(answer.toString())
                      .isLessThan(WAIT.toMillis() + 450);
                }
              });
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
