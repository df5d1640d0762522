package dev.trestle.server;

import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Entity-group transactions as raw multipart bodies, for tests that send them to any server. */
final class Batches {
  private static final String ENDPOINT = "{endpoint}";

  private Batches() {}

  static String insert(String table, String json) {
    return "POST "
        + ENDPOINT
        + "/"
        + table
        + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
        + json;
  }

  static String upsert(String table, String partition, String row, String json) {
    return "PUT "
        + ENDPOINT
        + MultiServerTest.entityPath(table, partition, row)
        + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
        + json;
  }

  static String merge(String table, String partition, String row, String ifMatch, String json) {
    return "MERGE "
        + ENDPOINT
        + MultiServerTest.entityPath(table, partition, row)
        + " HTTP/1.1\r\nContent-Type: application/json\r\nIf-Match: "
        + ifMatch
        + "\r\n\r\n"
        + json;
  }

  /** Sends the operations as one change set to the server. */
  static RawClient.Reply send(ServerFixture server, List<String> operations) {
    String[] addressed =
        operations.stream().map(o -> o.replace(ENDPOINT, server.endpoint())).toArray(String[]::new);
    return server
        .raw()
        .call("POST", "/$batch")
        .body(
            BatchTest.batch("", addressed).getBytes(StandardCharsets.UTF_8),
            "multipart/mixed; boundary=batch_x")
        .send();
  }
}
