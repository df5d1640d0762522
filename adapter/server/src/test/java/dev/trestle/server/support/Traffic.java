package dev.trestle.server.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Clients that insert, upsert and query one table over HTTP until stopped, each in a partition of
 * its own: every answer is kept with its time, and so is every write the server acknowledged.
 */
public final class Traffic {
  /** One request's answer; status -1 when no HTTP answer came. */
  public record Answer(String request, int status, String errorCode, long millis) {
    public boolean serverBusy() {
      return status == 503 && "ServerBusy".equals(errorCode);
    }

    public boolean success() {
      return status >= 200 && status < 300;
    }
  }

  private final RawClient raw;
  private final String table;
  private final String partitionPrefix;
  private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final Set<String> acknowledgedRows = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> acknowledgedCounters = new ConcurrentHashMap<>();
  private final List<Thread> clients = new ArrayList<>();
  private volatile boolean running;

  /**
   * Clients of {@code table} whose partitions are named {@code partitionPrefix} and the client's
   * number.
   */
  public Traffic(RawClient raw, String table, String partitionPrefix) {
    this.raw = raw;
    this.table = table;
    this.partitionPrefix = partitionPrefix;
  }

  public Traffic start(int clientCount) {
    running = true;
    for (int c = 0; c < clientCount; c++) {
      String partition = partitionPrefix + c;
      clients.add(Thread.ofPlatform().name("traffic-" + c).start(() -> run(partition)));
    }
    return this;
  }

  /** Stops the clients after their request in flight. */
  public Traffic stop() throws InterruptedException {
    running = false;
    for (Thread client : clients) {
      client.join();
    }
    return this;
  }

  public List<Answer> answers() {
    return List.copyOf(answers);
  }

  /** {@code partition/rowKey} of every insert answered 201. */
  public Set<String> acknowledgedRows() {
    return Set.copyOf(acknowledgedRows);
  }

  /** Per partition, the highest value an upsert of its counter entity was acknowledged with. */
  public Map<String, Integer> acknowledgedCounters() {
    return Map.copyOf(acknowledgedCounters);
  }

  private void run(String partition) {
    for (int seq = 1; running; seq++) {
      switch (seq % 3) {
        case 0 -> {
          Answer answer =
              send(
                  "insert",
                  raw.call("POST", "/" + table)
                      .json(
                          "{\"PartitionKey\":\""
                              + partition
                              + "\",\"RowKey\":\"r"
                              + seq
                              + "\",\"V\":"
                              + seq
                              + "}"));
          if (answer.status() == 201) {
            acknowledgedRows.add(partition + "/r" + seq);
          }
        }
        case 1 -> {
          Answer answer =
              send(
                  "upsert",
                  raw.call(
                          "PUT",
                          "/" + table + "(PartitionKey='" + partition + "',RowKey='counter')")
                      .json("{\"V\":" + seq + "}"));
          if (answer.status() == 204) {
            acknowledgedCounters.merge(partition, seq, Math::max);
          }
        }
        default ->
            send(
                "query",
                raw.call(
                    "GET", "/" + table + "()?$filter=PartitionKey%20eq%20'" + partition + "'"));
      }
    }
  }

  private Answer send(String request, RawClient.Call call) {
    long started = System.nanoTime();
    Answer answer;
    try {
      RawClient.Reply reply = call.send();
      answer =
          new Answer(
              request,
              reply.status(),
              reply.header("x-ms-error-code"),
              (System.nanoTime() - started) / 1_000_000);
    } catch (IllegalStateException e) {
      answer =
          new Answer(
              request + " (" + e.getCause() + ")",
              -1,
              null,
              (System.nanoTime() - started) / 1_000_000);
    }
    answers.add(answer);
    return answer;
  }
}
