package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes to a table with time to live whose entities expire at their own {@code TrestleExpires}:
 * already past, within a second or two, or in an hour, while the server sweeps every second.
 * Inserts land over expired entities (the store deletes exactly the expired version, then inserts),
 * upserts and merges over expired ones, and 10-entity batches insert over expired rows or upsert
 * them; the sweep deletes concurrently. After a restart each entity acknowledged alive is there
 * with its ETag (or the unanswered write's value), and a batch's rows are all there with one value
 * or none.
 */
final class ExpiringWrites implements Scenario {
  private static final int KEYS_PER_CLIENT = 12;
  private static final int BATCH_ROWS = 10;

  /** How far apart the two clocks' readings of one instant may be, with the check's own delays. */
  private static final long MARGIN_MILLIS = 500;

  private static final Pattern ETAG = Pattern.compile("(?im)^ETag: (.+)$");

  /** An entity's state: its value, ETag (null when not known) and expiry. */
  record State(int value, String etag, long expiresAt) {}

  /** One entity: the acknowledged state (null: absent) and the write without an answer. */
  static final class Key {
    State acked;
    State pending;
  }

  private final String table;
  private final Map<String, Map<String, Key>> keys = new LinkedHashMap<>(); // partition -> row
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicInteger acknowledged = new AtomicInteger();
  private final AtomicInteger overExpired = new AtomicInteger();
  private final AtomicInteger batches = new AtomicInteger();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> clients = new ArrayList<>();

  /** Answers that contradict the acknowledged state without losing anything (an insert refused). */
  final List<String> anomalies = Collections.synchronizedList(new ArrayList<>());

  ExpiringWrites(String table) {
    this.table = table;
  }

  @Override
  public void prepare(SignedHttp http) throws IOException, InterruptedException {
    assertThat(http.json("POST", "/Tables", "{\"TableName\":\"" + table + "\"}", null).status())
        .isEqualTo(201);
    SignedHttp.Reply ttl = http.send("PUT", "/" + table + "?trestle-ttl=entities", null, "", null);
    assertThat(ttl.status()).as(ttl.body()).isEqualTo(204);
  }

  private synchronized Key key(String partition, String rowKey) {
    return keys.computeIfAbsent(partition, p -> new LinkedHashMap<>())
        .computeIfAbsent(rowKey, r -> new Key());
  }

  @Override
  public void start(SignedHttp http, int clientCount, int cycle) {
    stop.set(false);
    for (int c = 0; c < clientCount; c++) {
      int client = c;
      clients.add(Thread.ofPlatform().start(() -> run(http, client)));
    }
  }

  @Override
  public void stop() throws InterruptedException {
    stop.set(true);
    for (Thread client : clients) {
      client.join(60_000);
    }
    clients.clear();
  }

  private void run(SignedHttp http, int client) {
    String partition = "t" + client;
    try {
      boolean known = true;
      while (known && !stop.get()) {
        int choice = ThreadLocalRandom.current().nextInt(10);
        String rowKey = "k" + ThreadLocalRandom.current().nextInt(KEYS_PER_CLIENT);
        known =
            switch (choice) {
              case 0, 1, 2, 3 -> insert(http, partition, rowKey);
              case 4, 5 -> upsert(http, partition, rowKey, "PUT");
              case 6, 7 -> upsert(http, partition, rowKey, "MERGE");
              default -> batch(http, "tb" + client);
            };
      }
    } catch (IOException e) {
      // the server died: this client's last write stays unanswered
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Already past, in a second or two, or in an hour. */
  private static long expiry() {
    long now = System.currentTimeMillis();
    return switch (ThreadLocalRandom.current().nextInt(10)) {
      case 0, 1, 2 -> now - 60_000;
      case 3, 4, 5 -> now + ThreadLocalRandom.current().nextLong(300, 2000);
      default -> now + 3_600_000;
    };
  }

  /** Whether the state is certainly expired (or absent) now, whatever the clocks' difference. */
  private static boolean certainlyGone(State state) {
    return state == null || state.expiresAt() < System.currentTimeMillis() - MARGIN_MILLIS;
  }

  private boolean insert(SignedHttp http, String partition, String rowKey)
      throws IOException, InterruptedException {
    Key key = key(partition, rowKey);
    State sent = new State(sequence.incrementAndGet(), null, expiry());
    boolean wasExpired = key.acked != null && certainlyGone(key.acked);
    key.pending = sent;
    SignedHttp.Reply reply = http.json("POST", "/" + table, body(partition, rowKey, sent), null);
    if (reply.status() == 201) {
      acknowledge(key, sent, reply.etag());
      if (wasExpired) {
        overExpired.incrementAndGet();
      }
      return true;
    }
    key.pending = null;
    if (reply.status() == 409) {
      if (certainlyGone(key.acked)) {
        anomalies.add(partition + "/" + rowKey + ": insert over an expired entity refused");
      }
      return true; // nothing written: the entity is alive
    }
    return false;
  }

  private boolean upsert(SignedHttp http, String partition, String rowKey, String method)
      throws IOException, InterruptedException {
    Key key = key(partition, rowKey);
    State sent = new State(sequence.incrementAndGet(), null, expiry());
    key.pending = sent;
    String path = "/" + table + "(PartitionKey='" + partition + "',RowKey='" + rowKey + "')";
    SignedHttp.Reply reply = http.json(method, path, body(partition, rowKey, sent), null);
    if (reply.status() / 100 == 2) {
      acknowledge(key, sent, reply.etag());
      return true;
    }
    return false;
  }

  /**
   * A change set over the client's batch partition: inserts of rows certainly expired or absent,
   * upserts of the others, all with one value and one expiry.
   */
  private boolean batch(SignedHttp http, String partition)
      throws IOException, InterruptedException {
    State sent = new State(sequence.incrementAndGet(), null, expiry());
    List<String> operations = new ArrayList<>();
    List<Key> rows = new ArrayList<>();
    for (int i = 0; i < BATCH_ROWS; i++) {
      String rowKey = "r" + i;
      Key key = key(partition, rowKey);
      rows.add(key);
      key.pending = sent;
      String json = body(partition, rowKey, sent);
      operations.add(
          certainlyGone(key.acked)
              ? Batches.operation("POST", http.endpoint() + "/" + table, json)
              : Batches.operation(
                  "PUT",
                  http.endpoint()
                      + "/"
                      + table
                      + "(PartitionKey='"
                      + partition
                      + "',RowKey='"
                      + rowKey
                      + "')",
                  json));
    }
    SignedHttp.Reply reply = Batches.send(http, "/$batch", "b" + partition, operations);
    if (Batches.allSucceeded(reply, BATCH_ROWS)) {
      Matcher etags = ETAG.matcher(reply.body());
      for (Key key : rows) {
        acknowledge(key, sent, etags.find() ? etags.group(1).trim() : null);
      }
      batches.incrementAndGet();
      return true;
    }
    for (Key key : rows) {
      key.pending = null; // answered: nothing written
    }
    if (reply.status() == 202) {
      anomalies.add(partition + ": batch over expired or upserted rows refused: " + reply.body());
      return true;
    }
    return false;
  }

  private synchronized void acknowledge(Key key, State sent, String etag) {
    key.acked = new State(sent.value(), etag, sent.expiresAt());
    key.pending = null;
    acknowledged.incrementAndGet();
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
    int checked = 0;
    for (var partition : keys.entrySet()) {
      long before = System.currentTimeMillis();
      Map<String, JsonNode> stored = Verifier.entities(http, table, partition.getKey());
      long after = System.currentTimeMillis();
      Set<Integer> batchValues = new HashSet<>();
      for (var row : partition.getValue().entrySet()) {
        Key key = row.getValue();
        State found = state(stored.get(row.getKey()));
        String name = partition.getKey() + "/" + row.getKey();
        boolean ok;
        if (found != null) {
          ok =
              key.acked != null
                      && found.value() == key.acked.value()
                      && (key.acked.etag() == null || found.etag().equals(key.acked.etag()))
                  || key.pending != null && found.value() == key.pending.value();
          if (found.expiresAt() < before - MARGIN_MILLIS) {
            partial.add(name + ": expired at " + found.expiresAt() + " but read at " + before);
          }
          batchValues.add(found.value());
        } else {
          ok =
              key.acked == null
                  || key.acked.expiresAt() <= after + MARGIN_MILLIS
                  || key.pending != null && key.pending.expiresAt() <= after + MARGIN_MILLIS;
        }
        if (!ok) {
          lost.add(
              name
                  + ": acknowledged "
                  + key.acked
                  + ", unanswered "
                  + key.pending
                  + ", stored "
                  + found
                  + " (read between "
                  + before
                  + " and "
                  + after
                  + ")");
        }
        key.acked = found;
        key.pending = null;
        checked++;
      }
      if (partition.getKey().startsWith("tb")) {
        long visible = stored.size();
        if (batchValues.size() > 1 || (visible != 0 && visible != BATCH_ROWS)) {
          partial.add(partition.getKey() + ": " + visible + " rows with values " + batchValues);
        }
      }
    }
    return new Verifier.Findings(lost, partial, checked, 0);
  }

  /** The stored entity's value, ETag and expiry; null when absent. */
  private static State state(JsonNode entity) {
    if (entity == null) {
      return null;
    }
    return new State(
        entity.get("V").asInt(),
        entity.get("odata.etag").asText(),
        Instant.parse(entity.get("TrestleExpires").asText()).toEpochMilli());
  }

  private static String body(String partition, String rowKey, State state) {
    return "{\"PartitionKey\":\""
        + partition
        + "\",\"RowKey\":\""
        + rowKey
        + "\",\"V\":"
        + state.value()
        + ",\"TrestleExpires@odata.type\":\"Edm.DateTime\",\"TrestleExpires\":\""
        + Instant.ofEpochMilli(state.expiresAt())
        + "\"}";
  }

  @Override
  public String tally() {
    return overExpired.get()
        + " inserts over an expired entity, "
        + batches.get()
        + " batches of 10 among them, anomalies "
        + anomalies.size();
  }
}
