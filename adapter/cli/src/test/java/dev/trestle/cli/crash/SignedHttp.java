package dev.trestle.cli.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.server.auth.SharedKeySigner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** A minimal Table REST client signing with Shared Key Lite, as any hand-written client would. */
final class SignedHttp {
  static final String ACCOUNT = "devstoreaccount1";
  private static final SharedKeySigner SIGNER =
      SharedKeySigner.ofBase64(
          "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
  private static final DateTimeFormatter RFC_1123 =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final String endpoint;

  SignedHttp(String endpoint) {
    this.endpoint = endpoint;
  }

  record Reply(int status, String body, String etag, String errorCode, String continuation) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  Reply send(String method, String pathAndQuery, String contentType, String body, String ifMatch)
      throws IOException, InterruptedException {
    String date = RFC_1123.format(ZonedDateTime.now(ZoneOffset.UTC));
    String path =
        pathAndQuery.contains("?")
            ? pathAndQuery.substring(0, pathAndQuery.indexOf('?'))
            : pathAndQuery;
    String toSign = SharedKeySigner.liteStringToSign(date, "/" + ACCOUNT + "/" + ACCOUNT + path);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(endpoint + pathAndQuery))
            // generous: on H2 an upsert of a half-megabyte entity queued behind five others can
            // take
            // tens of seconds (LargePagesMemoryTest; a known H2 cost with large inline values)
            .timeout(Duration.ofSeconds(120))
            .header("x-ms-date", date)
            .header("x-ms-version", "2019-02-02")
            .header("Accept", "application/json;odata=minimalmetadata")
            .header("DataServiceVersion", "3.0")
            .header("Authorization", "SharedKeyLite " + ACCOUNT + ":" + sign(toSign))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (ifMatch != null) {
      request.header("If-Match", ifMatch);
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    String nextPartition =
        response.headers().firstValue("x-ms-continuation-NextPartitionKey").orElse(null);
    String nextRow = response.headers().firstValue("x-ms-continuation-NextRowKey").orElse(null);
    String continuation =
        nextPartition == null
            ? ""
            : "&NextPartitionKey="
                + encode(nextPartition)
                + (nextRow == null ? "" : "&NextRowKey=" + encode(nextRow));
    return new Reply(
        response.statusCode(),
        response.body(),
        response.headers().firstValue("ETag").orElse(null),
        response.headers().firstValue("x-ms-error-code").orElse(null),
        continuation);
  }

  private static String encode(String value) {
    return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  Reply json(String method, String path, String body, String ifMatch)
      throws IOException, InterruptedException {
    return send(method, path, "application/json", body, ifMatch);
  }

  String endpoint() {
    return endpoint;
  }

  private static String sign(String toSign) {
    return SIGNER.signBase64(toSign);
  }
}
