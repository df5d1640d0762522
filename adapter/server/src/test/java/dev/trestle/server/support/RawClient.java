package dev.trestle.server.support;

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
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Plain java.net.http requests to the server, signed with Shared Key unless told otherwise. */
public final class RawClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private static final DateTimeFormatter RFC_1123 =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

  private final String endpoint;
  private final String account;
  private final String key;

  public RawClient(String endpoint, String account, String key) {
    this.endpoint = endpoint;
    this.account = account;
    this.key = key;
  }

  public RawClient withKey(String otherKey) {
    return new RawClient(endpoint, account, otherKey);
  }

  public Call call(String method, String pathAndQuery) {
    return new Call(method, pathAndQuery);
  }

  /** A response with its body as text. */
  public record Reply(int status, HttpResponse<String> response) {
    public String body() {
      return response.body();
    }

    public String header(String name) {
      return response.headers().firstValue(name).orElse(null);
    }
  }

  public final class Call {
    private final String method;
    private final String pathAndQuery;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final java.util.List<String[]> repeated = new java.util.ArrayList<>();
    private byte[] body;
    private boolean signed = true;
    private String signedPath;

    private Call(String method, String pathAndQuery) {
      this.method = method;
      this.pathAndQuery = pathAndQuery;
      headers.put("Accept", "application/json;odata=minimalmetadata");
      headers.put("x-ms-version", "2019-02-02");
    }

    /** Sets a header; a null value leaves it out, also one the call sends by default. */
    public Call header(String name, String value) {
      if (value == null) {
        headers.remove(name);
      } else {
        headers.put(name, value);
      }
      return this;
    }

    /**
     * Sends one more {@code name} header line with {@code value}, after the signed request's own
     * (for a header the request already has, such as {@code Authorization}, a second line).
     */
    public Call repeatHeader(String name, String value) {
      repeated.add(new String[] {name, value});
      return this;
    }

    public Call json(String json) {
      return body(json.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    public Call body(byte[] content, String contentType) {
      this.body = content;
      headers.put("Content-Type", contentType);
      return this;
    }

    /** Signs the request as if its path were {@code rawPath}, as some SDKs do. */
    public Call signedAs(String rawPath) {
      this.signedPath = rawPath;
      return this;
    }

    public Call unsigned() {
      this.signed = false;
      return this;
    }

    public Reply send() {
      URI uri = URI.create(endpoint + pathAndQuery);
      String date = RFC_1123.format(ZonedDateTime.now(ZoneOffset.UTC));
      HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
      request.header("x-ms-date", date);
      headers.forEach(request::header);
      if (signed) {
        request.header("Authorization", "SharedKey " + account + ":" + sign(uri, date));
      }
      repeated.forEach(header -> request.header(header[0], header[1]));
      request.method(
          method,
          body == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      try {
        HttpResponse<String> response =
            HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response);
      } catch (IOException e) {
        throw new IllegalStateException(method + " " + uri + " failed", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    private String sign(URI uri, String date) {
      String resource = "/" + account + (signedPath == null ? uri.getRawPath() : signedPath);
      String query = uri.getRawQuery();
      if (query != null) {
        for (String pair : query.split("&")) {
          if (pair.startsWith("comp=")) {
            resource += "?comp=" + pair.substring(5);
          }
        }
      }
      String toSign =
          SharedKeySigner.stringToSign(method, null, headers.get("Content-Type"), date, resource);
      return SharedKeySigner.ofBase64(key).signBase64(toSign);
    }
  }
}
