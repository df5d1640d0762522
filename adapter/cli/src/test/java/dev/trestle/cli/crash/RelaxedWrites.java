package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Relaxed transactions ({@code $batch?trestle-transaction=relaxed}) over two tables: each client's
 * transaction number {@code n} replaces its balance entity in five partitions of one table and
 * merges it in five of the other, and inserts 20 entities across ten partitions of the cycle (or,
 * one in four, 120 of them in one partition: more than a group's 100). After a restart a client's
 * ten balances hold one number, its last acknowledged or its unanswered one, and each of its
 * transactions' inserts are all there or (only the unanswered one, with the older balances) none.
 */
final class RelaxedWrites implements Scenario {
  private static final int PARTITIONS = 5;

  /** One client's transactions: the last acknowledged, the unanswered, and their insert counts. */
  static final class Client {
    int acked;
    int pending;
    int next;
    final Map<Integer, Integer> inserts = new LinkedHashMap<>(); // this cycle's: n -> count
    final Map<Integer, String> inPartitions = new HashMap<>(); // n -> "c{cycle}"
  }

  private final String[] tables;
  private final Map<Integer, Client> clients = new LinkedHashMap<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Integer> cycles = new ArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicInteger acknowledged = new AtomicInteger();
  private final AtomicInteger operations = new AtomicInteger();
  private final AtomicInteger large = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();

  RelaxedWrites(String table) {
    this.tables = new String[] {table + "a", table + "b"};
  }

  @Override
  public void prepare(SignedHttp http) throws IOException, InterruptedException {
    for (String table : tables) {
      assertThat(http.json("POST", "/Tables", "{\"TableName\":\"" + table + "\"}", null).status())
          .isEqualTo(201);
    }
  }

  @Override
  public synchronized void start(SignedHttp http, int clientCount, int cycle) {
    stop.set(false);
    cycles.add(cycle);
    for (int c = 0; c < clientCount; c++) {
      Client client = clients.computeIfAbsent(c, k -> new Client());
      int id = c;
      threads.add(Thread.ofPlatform().start(() -> run(http, id, client, cycle)));
    }
  }

  @Override
  public void stop() throws InterruptedException {
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(60_000);
    }
    threads.clear();
  }

  private void run(SignedHttp http, int id, Client client, int cycle) {
    try {
      while (!stop.get()) {
        int n = ++client.next;
        boolean inOne = ThreadLocalRandom.current().nextInt(4) == 0;
        List<String> batch = transaction(http, id, n, cycle, inOne);
        synchronized (this) {
          client.pending = n;
          client.inserts.put(n, batch.size() - 2 * PARTITIONS);
        }
        SignedHttp.Reply reply =
            Batches.send(http, "/$batch?trestle-transaction=relaxed", "c" + id + "n" + n, batch);
        if (!Batches.allSucceeded(reply, batch.size())) {
          refused.incrementAndGet(); // known, but unexpected: the check then tells what it left
          return;
        }
        synchronized (this) {
          client.acked = n;
          client.pending = 0;
        }
        acknowledged.incrementAndGet();
        operations.addAndGet(batch.size());
        if (inOne) {
          large.incrementAndGet();
        }
      }
    } catch (IOException e) {
      // the server died: the last transaction stays unanswered
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<String> transaction(SignedHttp http, int id, int n, int cycle, boolean inOne) {
    List<String> operations = new ArrayList<>();
    for (int t = 0; t < tables.length; t++) {
      for (int p = 0; p < PARTITIONS; p++) {
        operations.add(
            Batches.operation(
                t == 0 ? "PUT" : "MERGE",
                http.endpoint()
                    + "/"
                    + tables[t]
                    + "(PartitionKey='s"
                    + p
                    + "',RowKey='c"
                    + id
                    + "')",
                body("s" + p, "c" + id, n)));
      }
    }
    int count = inOne ? 120 : 20;
    for (int i = 0; i < count; i++) {
      String table = tables[inOne ? 0 : i % 2];
      String partition = "n" + cycle + "x" + (inOne ? 0 : i % (2 * PARTITIONS) / 2);
      operations.add(
          Batches.operation(
              "POST", http.endpoint() + "/" + table, body(partition, rowKey(id, n, i), n)));
    }
    return operations;
  }

  private static String rowKey(int id, int n, int i) {
    return "c" + id + "t" + n + "i" + i;
  }

  private static String body(String partition, String rowKey, int n) {
    return "{\"PartitionKey\":\"" + partition + "\",\"RowKey\":\"" + rowKey + "\",\"V\":" + n + "}";
  }

  @Override
  public int acknowledgedWrites() {
    return acknowledged.get();
  }

  @Override
  public synchronized Verifier.Findings verify(SignedHttp http)
      throws IOException, InterruptedException {
    List<String> lost = new ArrayList<>();
    List<String> partial = new ArrayList<>();
    Map<Integer, List<Integer>> balances = new HashMap<>(); // client -> the ten values
    for (String table : tables) {
      for (int p = 0; p < PARTITIONS; p++) {
        for (var row : Verifier.entities(http, table, "s" + p).entrySet()) {
          int id = Integer.parseInt(row.getKey().substring(1));
          balances.computeIfAbsent(id, k -> new ArrayList<>()).add(row.getValue().get("V").asInt());
        }
      }
    }
    Map<String, Integer> inserted = new HashMap<>(); // "c{id}t{n}" -> rows found
    int cycle = cycles.get(cycles.size() - 1);
    for (String table : tables) {
      for (int p = 0; p < PARTITIONS; p++) {
        for (var row : Verifier.entities(http, table, "n" + cycle + "x" + p).entrySet()) {
          String key = row.getKey();
          inserted.merge(key.substring(0, key.indexOf('i')), 1, Integer::sum);
        }
      }
    }
    int checked = 0;
    for (var entry : clients.entrySet()) {
      int id = entry.getKey();
      Client client = entry.getValue();
      List<Integer> values = balances.getOrDefault(id, List.of());
      int value = values.isEmpty() ? 0 : values.get(0);
      if (values.stream().distinct().count() > 1
          || !values.isEmpty() && values.size() != 2 * PARTITIONS) {
        partial.add("client " + id + ": balances " + values);
      } else if (value != client.acked && (client.pending == 0 || value != client.pending)) {
        lost.add(
            "client "
                + id
                + ": balance "
                + value
                + ", acknowledged "
                + client.acked
                + ", unanswered "
                + client.pending);
      }
      for (var transaction : client.inserts.entrySet()) {
        int n = transaction.getKey();
        int found = inserted.getOrDefault("c" + id + "t" + n, 0);
        boolean committed = n <= value;
        if (found != (committed ? transaction.getValue() : 0)) {
          (found == 0 ? lost : partial)
              .add(
                  "client "
                      + id
                      + " transaction "
                      + n
                      + ": "
                      + found
                      + " of "
                      + transaction.getValue()
                      + " inserts, balance "
                      + value);
        }
        checked++;
      }
      client.acked = value;
      client.pending = 0;
      client.next = Math.max(client.next, value);
      client.inserts.clear();
    }
    return new Verifier.Findings(lost, partial, checked, checked);
  }

  @Override
  public String tally() {
    return "relaxed transactions of "
        + operations.get()
        + " operations, "
        + large.get()
        + " with 120 inserts in one partition, refused "
        + refused.get();
  }
}
