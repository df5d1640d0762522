package dev.trestle.cli.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Clients writing concurrently until the server goes away: single inserts, upserts, merges and
 * 100-entity batches, each client in partitions of its own, so that every entity's writes are in
 * order. Every answer goes into the {@link Ledger}; a client stops at its first write whose outcome
 * it cannot know.
 */
final class Workload {
  private static final int KEYS_PER_CLIENT = 20;

  /** How answers that refuse a write during a graceful stop were worded, by status and code. */
  final List<String> refusals = java.util.Collections.synchronizedList(new ArrayList<>());

  private final Ledger ledger;
  private final String table;
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> clients = new ArrayList<>();

  Workload(Ledger ledger, String table) {
    this.ledger = ledger;
    this.table = table;
  }

  void start(SignedHttp http, int clientCount, int cycle) {
    stop.set(false);
    for (int c = 0; c < clientCount; c++) {
      String partition = "c" + c;
      String batchPrefix = "b" + cycle + "x" + c + "n";
      clients.add(Thread.ofPlatform().start(() -> run(http, partition, batchPrefix)));
    }
  }

  /** Stops the clients (after the server died, they stop by themselves) and waits for them. */
  void stop() throws InterruptedException {
    stop.set(true);
    for (Thread client : clients) {
      client.join(60_000);
    }
    clients.clear();
  }

  private void run(SignedHttp http, String partition, String batchPrefix) {
    int batches = 0;
    while (!stop.get()) {
      int choice = ThreadLocalRandom.current().nextInt(10);
      boolean known;
      try {
        known =
            switch (choice) {
              case 0, 1 -> insert(http, partition, "i" + sequence.incrementAndGet());
              case 2, 3, 4 ->
                  write(
                      http,
                      partition,
                      "k" + ThreadLocalRandom.current().nextInt(KEYS_PER_CLIENT),
                      false);
              case 5, 6, 7 ->
                  write(
                      http,
                      partition,
                      "k" + ThreadLocalRandom.current().nextInt(KEYS_PER_CLIENT),
                      true);
              default -> batch(http, batchPrefix + batches++);
            };
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (!known) {
        return;
      }
    }
  }

  private boolean insert(SignedHttp http, String partition, String rowKey)
      throws InterruptedException {
    Ledger.Entry entry = ledger.entry(partition, rowKey);
    int value = sequence.incrementAndGet();
    entry.pending = Map.of("V", value);
    return settle(
        entry,
        entry.pending,
        () -> http.json("POST", "/" + table, body(partition, rowKey, entry.pending), null));
  }

  /** Insert-or-replace (PUT) or insert-or-merge (MERGE) of an entity of the client's own. */
  private boolean write(SignedHttp http, String partition, String rowKey, boolean merge)
      throws InterruptedException {
    Ledger.Entry entry = ledger.entry(partition, rowKey);
    int value = sequence.incrementAndGet();
    Map<String, Integer> sent = merge ? Map.of("M" + value % 7, value) : Map.of("V", value);
    entry.pending = merge ? Ledger.merged(entry, sent) : sent;
    String path = "/" + table + "(PartitionKey='" + partition + "',RowKey='" + rowKey + "')";
    return settle(
        entry,
        entry.pending,
        () -> http.json(merge ? "MERGE" : "PUT", path, body(partition, rowKey, sent), null));
  }

  private interface Call {
    SignedHttp.Reply send() throws java.io.IOException, InterruptedException;
  }

  /**
   * Records the answer; false when the outcome cannot be known (no answer, or an error that may
   * hide a commit).
   */
  private boolean settle(Ledger.Entry entry, Map<String, Integer> state, Call call)
      throws InterruptedException {
    SignedHttp.Reply reply;
    try {
      reply = call.send();
    } catch (java.io.IOException e) {
      return false;
    }
    if (reply.status() / 100 == 2) {
      ledger.acknowledged(entry, state, reply.etag());
      return true;
    }
    refusals.add(reply.status() + " " + reply.errorCode());
    return false;
  }

  private boolean batch(SignedHttp http, String partition) throws InterruptedException {
    ledger.batch(partition, Ledger.BatchState.UNKNOWN);
    String batchBoundary = "batch_" + partition;
    String changeset = "changeset_" + partition;
    StringBuilder body =
        new StringBuilder()
            .append("--")
            .append(batchBoundary)
            .append("\r\n")
            .append("Content-Type: multipart/mixed; boundary=")
            .append(changeset)
            .append("\r\n\r\n");
    for (int i = 0; i < 100; i++) {
      body.append("--")
          .append(changeset)
          .append("\r\n")
          .append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
          .append("POST ")
          .append(http.endpoint())
          .append('/')
          .append(table)
          .append(" HTTP/1.1\r\n")
          .append("Content-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n")
          .append("Prefer: return-no-content\r\nDataServiceVersion: 3.0\r\n\r\n")
          .append(body(partition, "r" + i, Map.of("V", i)))
          .append("\r\n");
    }
    body.append("--").append(changeset).append("--\r\n--").append(batchBoundary).append("--\r\n");
    SignedHttp.Reply reply;
    try {
      reply =
          http.send(
              "POST",
              "/$batch",
              "multipart/mixed; boundary=" + batchBoundary,
              body.toString(),
              null);
    } catch (java.io.IOException e) {
      return false;
    }
    boolean allApplied =
        reply.status() == 202
            && reply
                .body()
                .lines()
                .filter(line -> line.startsWith("HTTP/1.1 "))
                .allMatch(line -> line.startsWith("HTTP/1.1 2"));
    if (allApplied) {
      ledger.batch(partition, Ledger.BatchState.ACKNOWLEDGED);
      return true;
    }
    refusals.add(reply.status() + " " + reply.errorCode());
    return false;
  }

  private static String body(String partition, String rowKey, Map<String, Integer> properties) {
    StringBuilder json =
        new StringBuilder("{\"PartitionKey\":\"")
            .append(partition)
            .append("\",\"RowKey\":\"")
            .append(rowKey)
            .append('"');
    properties.forEach(
        (name, value) -> json.append(",\"").append(name).append("\":").append(value));
    return json.append('}').toString();
  }
}
