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
  private final boolean deletes;
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> clients = new ArrayList<>();

  Workload(Ledger ledger, String table) {
    this(ledger, table, false);
  }

  /** With {@code deletes}, the clients delete their entities too (If-Match *). */
  Workload(Ledger ledger, String table, boolean deletes) {
    this.ledger = ledger;
    this.table = table;
    this.deletes = deletes;
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
      int choice = ThreadLocalRandom.current().nextInt(deletes ? 12 : 10);
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
              case 8, 9 -> batch(http, batchPrefix + batches++);
              default ->
                  delete(
                      http, partition, "k" + ThreadLocalRandom.current().nextInt(KEYS_PER_CLIENT));
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

  /** A delete of any version; a 404 (nothing to delete) changes nothing and is known. */
  private boolean delete(SignedHttp http, String partition, String rowKey)
      throws InterruptedException {
    Ledger.Entry entry = ledger.entry(partition, rowKey);
    entry.pendingDelete = true;
    String path = "/" + table + "(PartitionKey='" + partition + "',RowKey='" + rowKey + "')";
    SignedHttp.Reply reply;
    try {
      reply = http.send("DELETE", path, null, null, "*");
    } catch (java.io.IOException e) {
      return false;
    }
    if (reply.status() == 204) {
      ledger.acknowledged(entry, null, null);
      return true;
    }
    if (reply.status() == 404) {
      ledger.refused(entry); // known: nothing there to delete (a loss when one was acknowledged)
      return entry.acked == null;
    }
    refusals.add(reply.status() + " " + reply.errorCode());
    return false;
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
    List<String> operations = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      operations.add(
          Batches.operation(
              "POST", http.endpoint() + "/" + table, body(partition, "r" + i, Map.of("V", i))));
    }
    SignedHttp.Reply reply;
    try {
      reply = Batches.send(http, "/$batch", partition, operations);
    } catch (java.io.IOException e) {
      return false;
    }
    if (Batches.allSucceeded(reply, 100)) {
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
