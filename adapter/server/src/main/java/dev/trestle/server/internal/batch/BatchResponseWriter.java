package dev.trestle.server.internal.batch;

import dev.trestle.server.internal.http.ApiResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Writes a {@code $batch} response: parts in the service's framing, each an HTTP response. */
final class BatchResponseWriter {
  private final String boundary = "batchresponse_" + UUID.randomUUID();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(1024);

  String contentType() {
    return "multipart/mixed; boundary=" + boundary;
  }

  /** The responses of a change set (one part each, in order; a single part when it failed). */
  byte[] changeSet(List<ApiResponse> responses) {
    String changeSet = "changesetresponse_" + UUID.randomUUID();
    text("--" + boundary + "\r\n");
    text("Content-Type: multipart/mixed; boundary=" + changeSet + "\r\n\r\n");
    for (ApiResponse response : responses) {
      text("--" + changeSet + "\r\n");
      httpPart(response);
    }
    text("--" + changeSet + "--\r\n");
    text("--" + boundary + "--\r\n");
    return out.toByteArray();
  }

  /** The response of a single query batch: no change-set wrapper. */
  byte[] query(ApiResponse response) {
    text("--" + boundary + "\r\n");
    httpPart(response);
    text("--" + boundary + "--\r\n");
    return out.toByteArray();
  }

  private void httpPart(ApiResponse response) {
    text("Content-Type: application/http\r\n");
    text("Content-Transfer-Encoding: binary\r\n");
    text("\r\n");
    text("HTTP/1.1 " + response.status() + " " + ApiResponse.reason(response.status()) + "\r\n");
    text("X-Content-Type-Options: nosniff\r\n");
    text("Cache-Control: no-cache\r\n");
    // as Azure answers (recorded): 3.0 for a body or an insert (with or without content), 1.0 else
    boolean v3 = response.body().length > 0 || response.headers().containsKey("DataServiceId");
    text("DataServiceVersion: " + (v3 ? "3.0;" : "1.0;") + "\r\n");
    for (Map.Entry<String, String> header : response.headers().entrySet()) {
      text(header.getKey() + ": " + header.getValue() + "\r\n");
    }
    text("\r\n");
    if (response.body().length > 0) {
      out.writeBytes(response.body());
      text("\r\n");
    }
  }

  private void text(String text) {
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
  }
}
