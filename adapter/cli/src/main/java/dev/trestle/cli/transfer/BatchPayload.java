package dev.trestle.cli.transfer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code $batch} wire format for one entity-group transaction: a multipart/mixed request
 * holding one changeset of HTTP requests, and the few facts a copy needs from the multipart answer
 * (did an operation fail, which one).
 */
final class BatchPayload {
  private static final String CRLF = "\r\n";
  private static final Pattern STATUS_LINE = Pattern.compile("(?m)^HTTP/1\\.1 (\\d{3})");

  /**
   * The service prefixes the failed operation's message with its index: {@code "3:The specified
   * entity ..."}.
   */
  private static final Pattern INDEXED_MESSAGE =
      Pattern.compile("\"value\"\\s*:\\s*\"(\\d+):|<message[^>]*>(\\d+):");

  private static final Pattern ERROR_CODE =
      Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"|<code>([^<]+)</code>");

  /** One operation: method, absolute URL, JSON body (null for none). */
  record Operation(String method, String url, String json) {}

  /** A failed operation of a changeset: its index, HTTP status and error code. */
  record Failure(int index, int status, String code) {}

  private final String boundary = "batch_" + UUID.randomUUID();
  private final byte[] body;

  BatchPayload(List<Operation> operations) {
    String changeset = "changeset_" + UUID.randomUUID();
    StringBuilder text = new StringBuilder(1024 * operations.size());
    text.append("--")
        .append(boundary)
        .append(CRLF)
        .append("Content-Type: multipart/mixed; boundary=")
        .append(changeset)
        .append(CRLF)
        .append(CRLF);
    for (Operation operation : operations) {
      text.append("--")
          .append(changeset)
          .append(CRLF)
          .append("Content-Type: application/http")
          .append(CRLF)
          .append("Content-Transfer-Encoding: binary")
          .append(CRLF)
          .append(CRLF)
          .append(operation.method())
          .append(' ')
          .append(operation.url())
          .append(" HTTP/1.1")
          .append(CRLF)
          .append("Accept: application/json;odata=minimalmetadata")
          .append(CRLF)
          .append("DataServiceVersion: 3.0")
          .append(CRLF)
          .append("Prefer: return-no-content")
          .append(CRLF);
      if (operation.json() != null) {
        text.append("Content-Type: application/json")
            .append(CRLF)
            .append(CRLF)
            .append(operation.json());
      }
      text.append(CRLF);
    }
    text.append("--")
        .append(changeset)
        .append("--")
        .append(CRLF)
        .append("--")
        .append(boundary)
        .append("--")
        .append(CRLF);
    body = text.toString().getBytes(StandardCharsets.UTF_8);
  }

  String contentType() {
    return "multipart/mixed; boundary=" + boundary;
  }

  byte[] body() {
    return body;
  }

  /**
   * The failed operation of an accepted ({@code 202}) batch answer, if any. A changeset either
   * succeeds whole, with one status line per operation, or fails whole, with one status line for
   * the operation that failed.
   */
  static Optional<Failure> failure(String answer) {
    Matcher status = STATUS_LINE.matcher(answer);
    while (status.find()) {
      int code = Integer.parseInt(status.group(1));
      if (code >= 300) {
        String rest = answer.substring(status.start());
        Matcher index = INDEXED_MESSAGE.matcher(rest);
        Matcher errorCode = ERROR_CODE.matcher(rest);
        return Optional.of(
            new Failure(
                index.find()
                    ? Integer.parseInt(index.group(1) != null ? index.group(1) : index.group(2))
                    : 0,
                code,
                errorCode.find()
                    ? (errorCode.group(1) != null ? errorCode.group(1) : errorCode.group(2))
                    : ""));
      }
    }
    return Optional.empty();
  }
}
