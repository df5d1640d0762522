package dev.trestle.cli.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableEntity;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The few Table REST calls a copy needs (list tables, create one, read entities page by page, write one),
 * against Azure, Azurite or another Trestle, signed with Shared Key or authorised by a SAS token. Path-style
 * endpoints ({@code http://host:port/account}) and host-style ones ({@code https://account.table.core.windows.net})
 * both work. Not a general client: applications use the Azure SDKs.
 */
public final class RemoteTables {
  private static final String VERSION = "2019-02-02";
  private static final String JSON = "application/json";
  private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME;

  private final String base;
  private final String account;
  private final byte[] key;
  private final String sas;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final ObjectMapper mapper = new ObjectMapper();
  private final EntityJson entityJson = new EntityJson();

  /** A call the service refused, with its status and error code. */
  public static final class RemoteException extends RuntimeException {
    private final int status;

    RemoteException(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  private RemoteTables(String base, String account, byte[] key, String sas) {
    this.base = base;
    this.account = account;
    this.key = key;
    this.sas = sas;
  }

  /** An endpoint with a base64 account key (Shared Key). */
  public static RemoteTables withKey(String endpoint, String base64Key) {
    String base = trimSlash(endpoint);
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64Key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the key for " + base + " is not base64");
    }
    return new RemoteTables(base, accountOf(base), key, null);
  }

  /** An endpoint with a SAS token (with or without its leading '?'). */
  public static RemoteTables withSas(String endpoint, String sasToken) {
    String base = trimSlash(endpoint);
    return new RemoteTables(base, accountOf(base), null, sasToken.startsWith("?") ? sasToken.substring(1) : sasToken);
  }

  public String endpoint() {
    return base;
  }

  /** Every table's name, following NextTableName. */
  public List<String> tableNames() {
    List<String> names = new ArrayList<>();
    String next = null;
    do {
      HttpResponse<String> response = send("GET", "/Tables", next == null ? null : "NextTableName=" + encode(next), null);
      for (JsonNode table : json(response).path("value")) {
        names.add(table.path("TableName").asText());
      }
      next = response.headers().firstValue("x-ms-continuation-NextTableName").filter(s -> !s.isEmpty()).orElse(null);
    } while (next != null);
    return names;
  }

  public void createTableIfNotExists(String table) {
    try {
      send("POST", "/Tables", null, "{\"TableName\":" + mapper.valueToTree(table) + "}");
    } catch (RemoteException e) {
      if (e.status() != 409) {
        throw e;
      }
    }
  }

  /** One page of a table's entities and where the next one starts. */
  public record Page(List<TableEntity> entities, Optional<String> continuation) {}

  public Page page(String table, String continuation) {
    HttpResponse<String> response = send("GET", "/" + table + "()", continuation, null);
    List<TableEntity> entities = new ArrayList<>();
    for (JsonNode entity : json(response).path("value")) {
      entities.add(entityJson.read(entity.toString()));
    }
    Optional<String> partition = response.headers().firstValue("x-ms-continuation-NextPartitionKey").filter(s -> !s.isEmpty());
    Optional<String> row = response.headers().firstValue("x-ms-continuation-NextRowKey").filter(s -> !s.isEmpty());
    return new Page(entities, partition.map(p -> "NextPartitionKey=" + encode(p) + row.map(r -> "&NextRowKey=" + encode(r)).orElse("")));
  }

  /** Writes one entity: insert-or-replace, insert-or-merge, or insert. */
  public void write(String table, TableEntity entity, EntityWriter.Mode mode) {
    String body = entityJson.write(TableEntity.builder(entity.partitionKey(), entity.rowKey())
        .putAll(entity.properties()).build());
    switch (mode) {
      case UPSERT -> send("PUT", entityPath(table, entity), null, body);
      case MERGE -> send("MERGE", entityPath(table, entity), null, body);
      case INSERT -> send("POST", "/" + table, null, body);
    }
  }

  private static String entityPath(String table, TableEntity entity) {
    return "/" + table + "(PartitionKey='" + encode(entity.partitionKey().replace("'", "''"))
        + "',RowKey='" + encode(entity.rowKey().replace("'", "''")) + "')";
  }

  private HttpResponse<String> send(String method, String path, String query, String body) {
    String fullQuery = query == null ? sas : sas == null ? query : query + "&" + sas;
    URI uri = URI.create(base + path + (fullQuery == null ? "" : "?" + fullQuery));
    HttpRequest.Builder request = HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(60))
        .header("x-ms-version", VERSION)
        .header("Accept", "application/json;odata=minimalmetadata")
        .header("DataServiceVersion", "3.0")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (body != null) {
      request.header("Content-Type", JSON);
      request.header("Prefer", "return-no-content");
    }
    if (key != null) {
      String date = RFC_1123.format(ZonedDateTime.now(ZoneOffset.UTC));
      request.header("x-ms-date", date);
      String toSign = method + "\n\n" + (body == null ? "" : JSON) + "\n" + date + "\n/" + account + uri.getRawPath();
      request.header("Authorization", "SharedKey " + account + ":" + sign(toSign));
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new RemoteException(0, "Cannot reach " + base + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RemoteException(0, "Interrupted while calling " + base);
    }
    if (response.statusCode() >= 300) {
      String code = response.headers().firstValue("x-ms-error-code").map(c -> " " + c).orElse("");
      throw new RemoteException(response.statusCode(),
          method + " " + path + " on " + base + " failed: " + response.statusCode() + code);
    }
    return response;
  }

  private JsonNode json(HttpResponse<String> response) {
    try {
      return mapper.readTree(response.body());
    } catch (IOException e) {
      throw new RemoteException(response.statusCode(), "The answer of " + base + " is not JSON");
    }
  }

  private String sign(String toSign) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Path-style: the first path segment; host-style: the first label of the host name. */
  static String accountOf(String base) {
    URI uri = URI.create(base);
    if (uri.getScheme() == null || uri.getHost() == null) {
      throw new IllegalArgumentException("'" + base + "' is not an http(s) URL");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("^/+", "");
    if (!path.isEmpty()) {
      return path.split("/")[0];
    }
    return uri.getHost().split("\\.")[0];
  }

  private static String trimSlash(String endpoint) {
    return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
