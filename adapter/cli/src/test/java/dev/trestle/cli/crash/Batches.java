package dev.trestle.cli.crash;

import java.io.IOException;
import java.util.List;

/** Change sets written by hand, as a client without an SDK sends them. */
final class Batches {
  private Batches() {}

  /** One operation of a change set: {@code POST}, {@code PUT} or {@code MERGE} of a JSON entity. */
  static String operation(String method, String url, String json) {
    return "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        + method
        + " "
        + url
        + " HTTP/1.1\r\n"
        + "Content-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n"
        + "Prefer: return-no-content\r\nDataServiceVersion: 3.0\r\n\r\n"
        + json
        + "\r\n";
  }

  /** Sends the operations as one change set to {@code path} ({@code /$batch}, and options). */
  static SignedHttp.Reply send(SignedHttp http, String path, String name, List<String> operations)
      throws IOException, InterruptedException {
    String batch = "batch_" + name;
    String changeset = "changeset_" + name;
    StringBuilder body =
        new StringBuilder()
            .append("--")
            .append(batch)
            .append("\r\nContent-Type: multipart/mixed; boundary=")
            .append(changeset)
            .append("\r\n\r\n");
    for (String operation : operations) {
      body.append("--").append(changeset).append("\r\n").append(operation);
    }
    body.append("--").append(changeset).append("--\r\n--").append(batch).append("--\r\n");
    return http.send("POST", path, "multipart/mixed; boundary=" + batch, body.toString(), null);
  }

  /** Whether the change set was applied: 202 with a 2xx answer for each of its operations. */
  static boolean allSucceeded(SignedHttp.Reply reply, int operations) {
    return reply.status() == 202
        && reply.body().lines().filter(line -> line.startsWith("HTTP/1.1 ")).count() == operations
        && reply
            .body()
            .lines()
            .filter(line -> line.startsWith("HTTP/1.1 "))
            .allMatch(line -> line.startsWith("HTTP/1.1 2"));
  }
}
