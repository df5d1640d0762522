package dev.trestle.cli.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableEntity;
import dev.trestle.json.EntityLines;
import dev.trestle.model.TableLimits;
import dev.trestle.server.auth.SharedKeySigner;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The few Table REST calls a copy needs (list tables, create one, read entities page by page, write
 * one entity or one {@code $batch}), against Azure, Azurite or another Trestle, signed with Shared
 * Key or authorised by a SAS token. Path-style endpoints ({@code http://host:port/account}) and
 * host-style ones ({@code https://account.table.core.windows.net}) both work. Transient failures
 * (throttling, timeouts, dropped connections) are retried with exponential back-off, as far as
 * retrying cannot apply a write twice. Not a general client: applications use the Azure SDKs.
 */
public final class RemoteTables {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteTables.class);
  private static final String JSON = "application/json";
  private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME;
  private static final int MAX_ATTEMPTS = 8;

  /**
   * Attempts for a refused connection before the endpoint ever answered: a wrong URL or port, most
   * likely, which the full schedule (about 40 s) would only make the operator wait for. Once the
   * endpoint has answered, a refusal is an outage, and the full schedule waits it out.
   */
  private static final int FIRST_CONTACT_ATTEMPTS = 3;

  private static final long FIRST_BACKOFF_MS = 250;
  private static final long MAX_BACKOFF_MS = 10_000;

  /** The longest wait a Retry-After is obeyed with; a longer one waits this long. */
  static final long MAX_RETRY_AFTER_MS = 60_000;

  private final String base;
  private final String account;
  private final SharedKeySigner signer;
  private final String sas;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final ObjectMapper mapper = new ObjectMapper();
  private volatile boolean answered;

  /** A call the service refused, with its status and error code. */
  public static final class RemoteException extends RuntimeException {
    private final int status;
    private final String errorCode;
    private final boolean mayHaveBeenApplied;

    RemoteException(int status, String message) {
      this(status, "", message, false);
    }

    RemoteException(int status, String errorCode, String message, boolean mayHaveBeenApplied) {
      super(message);
      this.status = status;
      this.errorCode = errorCode;
      this.mayHaveBeenApplied = mayHaveBeenApplied;
    }

    /**
     * A write that timed out or lost its connection after being sent: the service may have applied
     * it.
     */
    public boolean mayHaveBeenApplied() {
      return mayHaveBeenApplied;
    }

    public int status() {
      return status;
    }

    /** The service's x-ms-error-code, or empty. */
    public String errorCode() {
      return errorCode;
    }
  }

  /**
   * An entity-group transaction the service refused: which operation, and why. Nothing of it was
   * written.
   */
  public static final class BatchRefusedException extends RuntimeException {
    private final int index;

    BatchRefusedException(int index, String message) {
      super(message);
      this.index = index;
    }

    public int index() {
      return index;
    }
  }

  /**
   * A batch too large for the service: over its 4 MiB limit (not sent), or refused with 413
   * RequestBodyTooLarge by a service with a lower one. Nothing of it was written.
   */
  public static final class BatchTooLargeException extends RuntimeException {
    BatchTooLargeException() {
      super("the $batch request is larger than the service accepts");
    }
  }

  /** Which failures a call may retry without risking a write applied twice. */
  enum Retry {
    /** Reads and idempotent writes: every transient failure. */
    ANY_TRANSIENT,
    /**
     * Inserts: only failures the service or the network guarantees were not applied (throttled, not
     * connected).
     */
    UNAPPLIED_ONLY
  }

  private RemoteTables(String base, String account, SharedKeySigner signer, String sas) {
    this.base = base;
    this.account = account;
    this.signer = signer;
    this.sas = sas;
  }

  /** An endpoint with a base64 account key (Shared Key). */
  public static RemoteTables withKey(String endpoint, String base64Key) {
    String base = trimSlash(endpoint);
    SharedKeySigner signer;
    try {
      signer = SharedKeySigner.ofBase64(base64Key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the key for " + base + " is not base64");
    }
    return new RemoteTables(base, accountOf(base), signer, null);
  }

  /** An endpoint with a SAS token (with or without its leading '?'). */
  public static RemoteTables withSas(String endpoint, String sasToken) {
    String base = trimSlash(endpoint);
    return new RemoteTables(
        base, accountOf(base), null, sasToken.startsWith("?") ? sasToken.substring(1) : sasToken);
  }

  public String endpoint() {
    return base;
  }

  /** Every table's name, following NextTableName. */
  public List<String> tableNames() {
    List<String> names = new ArrayList<>();
    String next = null;
    do {
      HttpResponse<String> response =
          send(
              "GET",
              "/Tables",
              next == null ? null : "NextTableName=" + encode(next),
              null,
              Retry.ANY_TRANSIENT);
      for (JsonNode table : json(response).path("value")) {
        names.add(table.path("TableName").asText());
      }
      next =
          response
              .headers()
              .firstValue("x-ms-continuation-NextTableName")
              .filter(s -> !s.isEmpty())
              .orElse(null);
    } while (next != null);
    return names;
  }

  public void createTableIfNotExists(String table) {
    try {
      // a retry after an ambiguous failure may find the table created by the first attempt: 409,
      // handled below
      send(
          "POST",
          "/Tables",
          null,
          jsonBody("{\"TableName\":" + mapper.valueToTree(table) + "}"),
          Retry.ANY_TRANSIENT);
    } catch (RemoteException e) {
      // 409 TableBeingDeleted (a table deleted less than about a minute ago) is no success
      if (e.status() != 409 || !alreadyExists(e.errorCode())) {
        throw e;
      }
    }
  }

  /** An emulator may answer a 409 without a code; Azure names it. */
  private static boolean alreadyExists(String errorCode) {
    return errorCode.isEmpty() || errorCode.equals("TableAlreadyExists");
  }

  /** One page of a table's entities and where the next one starts. */
  public record Page(List<TableEntity> entities, Optional<String> continuation) {}

  public Page page(String table, String continuation) {
    return page(table, null, continuation);
  }

  /** A page of the entities matching {@code filter} (null: all). */
  public Page page(String table, String filter, String continuation) {
    String query =
        filter == null
            ? continuation
            : "$filter=" + encode(filter) + (continuation == null ? "" : "&" + continuation);
    HttpResponse<String> response =
        send("GET", "/" + table + "()", query, null, Retry.ANY_TRANSIENT);
    List<TableEntity> entities = new ArrayList<>();
    for (JsonNode entity : json(response).path("value")) {
      entities.add(EntityLines.read(entity.toString()));
    }
    Optional<String> partition =
        response
            .headers()
            .firstValue("x-ms-continuation-NextPartitionKey")
            .filter(s -> !s.isEmpty());
    Optional<String> row =
        response.headers().firstValue("x-ms-continuation-NextRowKey").filter(s -> !s.isEmpty());
    return new Page(
        entities,
        partition.map(
            p ->
                "NextPartitionKey="
                    + encode(p)
                    + row.map(r -> "&NextRowKey=" + encode(r)).orElse("")));
  }

  /** Writes one entity: insert-or-replace, insert-or-merge, or insert. */
  public void write(String table, TableEntity entity, EntityWriter.Mode mode) {
    Body body = jsonBody(entityJson(entity));
    switch (mode) {
      case UPSERT -> send("PUT", entityPath(table, entity), null, body, Retry.ANY_TRANSIENT);
      case MERGE -> send("MERGE", entityPath(table, entity), null, body, Retry.ANY_TRANSIENT);
      case INSERT ->
          InsertDoubts.resolve(
              this,
              table,
              List.of(entity),
              () -> send("POST", "/" + table, null, body, Retry.UNAPPLIED_ONLY));
    }
  }

  /** The entity stored under these keys, or empty when there is none. */
  public Optional<TableEntity> entity(String table, String partitionKey, String rowKey) {
    TableEntity keys = TableEntity.builder(partitionKey, rowKey).build();
    try {
      return Optional.of(
          EntityLines.read(
              send("GET", entityPath(table, keys), null, null, Retry.ANY_TRANSIENT).body()));
    } catch (RemoteException e) {
      if (e.status() == 404 && !e.errorCode().equals("TableNotFound")) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Writes entities of one partition as one entity-group transaction ({@code $batch}): all or
   * nothing.
   *
   * @throws BatchRefusedException when the service refused an operation (nothing was written)
   * @throws BatchTooLargeException when the request would exceed the service's 4 MiB batch limit
   *     (nothing sent)
   */
  public void writeBatch(String table, List<TableEntity> entities, EntityWriter.Mode mode) {
    BatchPayload payload =
        new BatchPayload(
            entities.stream()
                .map(
                    entity ->
                        switch (mode) {
                          case UPSERT ->
                              new BatchPayload.Operation(
                                  "PUT", base + entityPath(table, entity), entityJson(entity));
                          case MERGE ->
                              new BatchPayload.Operation(
                                  "MERGE", base + entityPath(table, entity), entityJson(entity));
                          case INSERT ->
                              new BatchPayload.Operation(
                                  "POST", base + "/" + table, entityJson(entity));
                        })
                .toList());
    if (payload.body().length > TableLimits.MAX_BATCH_BYTES) {
      throw new BatchTooLargeException();
    }
    Runnable send =
        () -> {
          HttpResponse<String> response;
          try {
            response =
                send(
                    "POST",
                    "/$batch",
                    null,
                    new Body(payload.contentType(), payload.body()),
                    mode == EntityWriter.Mode.INSERT ? Retry.UNAPPLIED_ONLY : Retry.ANY_TRANSIENT);
          } catch (RemoteException e) {
            if (e.status() == 413) { // a lower limit (Cosmos DB: 2 MB), refused unapplied
              throw new BatchTooLargeException();
            }
            throw e;
          }
          BatchPayload.failure(response.body())
              .ifPresent(
                  failure -> {
                    throw new BatchRefusedException(
                        failure.index(), failure.status() + " " + failure.code());
                  });
        };
    if (mode == EntityWriter.Mode.INSERT) {
      InsertDoubts.resolve(this, table, entities, send);
    } else {
      send.run();
    }
  }

  private String entityJson(TableEntity entity) {
    return EntityLines.write(
        TableEntity.builder(entity.partitionKey(), entity.rowKey())
            .putAll(entity.properties())
            .build());
  }

  private static String entityPath(String table, TableEntity entity) {
    return "/"
        + table
        + "(PartitionKey='"
        + encode(entity.partitionKey().replace("'", "''"))
        + "',RowKey='"
        + encode(entity.rowKey().replace("'", "''"))
        + "')";
  }

  /** A request body with its content type. */
  private record Body(String contentType, byte[] bytes) {}

  private static Body jsonBody(String json) {
    return new Body(JSON, json.getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(
      String method, String path, String query, Body body, Retry retry) {
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> response;
      try {
        response = sendOnce(method, path, query, body);
      } catch (IOException e) {
        boolean unapplied =
            e instanceof java.net.ConnectException || e instanceof HttpConnectTimeoutException;
        int attempts = answered || !unapplied ? MAX_ATTEMPTS : FIRST_CONTACT_ATTEMPTS;
        if (attempt < attempts && (retry == Retry.ANY_TRANSIENT || unapplied)) {
          backOff(attempt, method, path, e.toString(), 0);
          continue;
        }
        throw new RemoteException(
            0,
            "",
            "Cannot reach "
                + base
                + ": "
                + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName())
                + " after "
                + attempt
                + " attempts",
            !unapplied && !method.equals("GET"));
      }
      answered = true;
      int status = response.statusCode();
      String code = status < 300 ? "" : errorCodeOf(response);
      if (status < 300) {
        return response;
      }
      if (attempt < MAX_ATTEMPTS && retryable(status, retry)) {
        backOff(attempt, method, path, status + " " + code, serverDelayMillis(response));
        continue;
      }
      throw new RemoteException(
          status,
          code,
          method
              + " "
              + path
              + " on "
              + base
              + " failed: "
              + status
              + (code.isEmpty() ? "" : " " + code),
          retryable(status, Retry.ANY_TRANSIENT) && !retryable(status, Retry.UNAPPLIED_ONLY));
    }
  }

  /**
   * The statuses the Azure SDKs' retry policy retries (408, 429, every 5xx but 501 and 505), except
   * that a write which must not be applied twice is retried only after 429 and 503 (ServerBusy),
   * which the service answers before applying anything: a timeout or another 5xx may have been
   * applied.
   */
  static boolean retryable(int status, Retry retry) {
    return switch (status) {
      case 429, 503 -> true;
      case 501, 505 -> false;
      default -> (status == 408 || status >= 500) && retry == Retry.ANY_TRANSIENT;
    };
  }

  private static final Pattern JSON_ERROR_CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern XML_ERROR_CODE = Pattern.compile("<Code>([^<]+)</Code>");

  /**
   * The error code of a refusal: the {@code x-ms-error-code} header, else the body's OData JSON
   * {@code code} or XML {@code <Code>}. Azure answers Table errors at version 2019-02-02 with the
   * code in the body only; Azurite and Trestle also send the header.
   */
  static String errorCodeOf(HttpResponse<String> response) {
    Optional<String> header =
        response.headers().firstValue("x-ms-error-code").filter(s -> !s.isBlank());
    if (header.isPresent()) {
      return header.get();
    }
    String body = response.body() == null ? "" : response.body();
    Matcher code = JSON_ERROR_CODE.matcher(body);
    if (code.find()) {
      return code.group(1);
    }
    code = XML_ERROR_CODE.matcher(body);
    return code.find() ? code.group(1) : "";
  }

  /**
   * The wait the service asked for, in milliseconds, read as azure-core's retry policy reads it:
   * {@code x-ms-retry-after-ms}, else {@code retry-after-ms}, else {@code Retry-After} in seconds
   * or as an HTTP date; at most {@link #MAX_RETRY_AFTER_MS}; 0 when it asked for none (or sent
   * garbage, which the exponential back-off then covers).
   */
  static long serverDelayMillis(HttpResponse<?> response) {
    for (String header : List.of("x-ms-retry-after-ms", "retry-after-ms")) {
      Optional<String> millis = response.headers().firstValue(header);
      if (millis.isPresent()) {
        try {
          return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Long.parseLong(millis.get().trim())));
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    Optional<String> retryAfter = response.headers().firstValue("Retry-After").map(String::trim);
    if (retryAfter.isEmpty()) {
      return 0;
    }
    long millis;
    try {
      millis = Long.parseLong(retryAfter.get()) * 1000;
    } catch (NumberFormatException notSeconds) {
      try {
        millis =
            Duration.between(
                    ZonedDateTime.now(ZoneOffset.UTC),
                    ZonedDateTime.parse(retryAfter.get(), RFC_1123))
                .toMillis();
      } catch (DateTimeParseException garbage) {
        return 0;
      }
    }
    return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, millis));
  }

  /** Exponential back-off with jitter, or the service's wait when it asked for a longer one. */
  static long delayMillis(int attempt, long serverDelayMillis) {
    long delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << (attempt - 1));
    delay +=
        ThreadLocalRandom.current().nextLong(delay / 4 + 1); // spread clients throttled together
    return Math.max(delay, serverDelayMillis);
  }

  private void backOff(
      int attempt, String method, String path, String reason, long serverDelayMillis) {
    long delay = delayMillis(attempt, serverDelayMillis);
    LOG.warn(
        "{} {} on {}: {}; retrying in {} ms (attempt {} of {})",
        method,
        path,
        base,
        reason,
        delay,
        attempt + 1,
        MAX_ATTEMPTS);
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RemoteException(0, "Interrupted while calling " + base);
    }
  }

  private HttpResponse<String> sendOnce(String method, String path, String query, Body body)
      throws IOException {
    String fullQuery = query == null ? sas : sas == null ? query : query + "&" + sas;
    URI uri = URI.create(base + path + (fullQuery == null ? "" : "?" + fullQuery));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(60))
            .header("x-ms-version", TableLimits.API_VERSION)
            // as the SDKs do: the id the service logs, for a support request about a failure
            .header("x-ms-client-request-id", UUID.randomUUID().toString())
            .header("Accept", "application/json;odata=minimalmetadata")
            .header("DataServiceVersion", "3.0")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body.bytes()));
    if (body != null) {
      request.header("Content-Type", body.contentType());
      if (body.contentType().equals(JSON)) {
        request.header("Prefer", "return-no-content");
      }
    }
    if (signer != null) {
      String date = RFC_1123.format(ZonedDateTime.now(ZoneOffset.UTC));
      request.header("x-ms-date", date);
      String toSign =
          SharedKeySigner.stringToSign(
              method,
              null,
              body == null ? null : body.contentType(),
              date,
              "/" + account + uri.getRawPath());
      request.header("Authorization", "SharedKey " + account + ":" + signer.signBase64(toSign));
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RemoteException(0, "Interrupted while calling " + base);
    }
  }

  private JsonNode json(HttpResponse<String> response) {
    try {
      return mapper.readTree(response.body());
    } catch (IOException e) {
      throw new RemoteException(response.statusCode(), "The answer of " + base + " is not JSON");
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
