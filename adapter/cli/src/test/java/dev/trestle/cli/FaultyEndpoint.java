package dev.trestle.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A proxy in front of a Table endpoint that answers as Azure does when it is loaded or the network
 * is not: it throttles, times out after applying a write, drops connections before and after
 * forwarding, cuts query pages short (as Azure does at 1,000 entities, 5 seconds or a partition
 * boundary) and answers empty pages that carry a continuation. Error answers carry their code in
 * the body only, as Azure's do at version 2019-02-02. Each kind of request ({@link Kind}) takes the
 * faults scripted for it in order; the rest pass through.
 */
final class FaultyEndpoint implements AutoCloseable {
  /** What the proxy does with one request. */
  enum Fault {
    /** Forwarded and answered as the endpoint answered: a gap in a script. */
    PASS,
    /** 503 ServerBusy with Retry-After: 1, nothing forwarded. */
    THROTTLE,
    /** 503 ServerBusy with x-ms-retry-after-ms: 20, nothing forwarded. */
    THROTTLE_MS,
    /** 500 OperationTimedOut, nothing forwarded. */
    TIMEOUT_BEFORE,
    /** Forwarded (so applied), then answered 500 OperationTimedOut. */
    TIMEOUT_AFTER,
    /** The connection closed without an answer, nothing forwarded. */
    DROP_BEFORE,
    /** Forwarded (so applied), then the connection closed without an answer. */
    DROP_AFTER,
    /** An empty page carrying the request's own continuation (waits for a request with one). */
    EMPTY_PAGE
  }

  /** The requests faults are scripted for. */
  enum Kind {
    QUERY_ENTITIES,
    BATCH,
    ENTITY_WRITE,
    OTHER
  }

  private static final Set<String> NOT_FORWARDED =
      Set.of("host", "content-length", "connection", "expect", "upgrade", "transfer-encoding");

  private final String target;
  private final int pageSize;
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(16);
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Map<Kind, Deque<Fault>> script = new ConcurrentHashMap<>();
  private final List<String> injected = java.util.Collections.synchronizedList(new ArrayList<>());

  /**
   * @param target the endpoint's base URL up to the port (no account)
   * @param pageSize the largest query page the proxy lets through ({@code $top} added)
   */
  FaultyEndpoint(String target, int pageSize) throws IOException {
    this.target = target.replaceAll("/+$", "");
    this.pageSize = pageSize;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The proxy's URL for {@code account}, path-style. */
  String endpoint(String account) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + account;
  }

  FaultyEndpoint script(Kind kind, Fault... faults) {
    script.computeIfAbsent(kind, k -> new ConcurrentLinkedDeque<>()).addAll(List.of(faults));
    return this;
  }

  /** The faults injected so far, as "KIND FAULT", in order. */
  List<String> injected() {
    return List.copyOf(injected);
  }

  /** Faults scripted but not yet met by a request. */
  int pending() {
    return script.values().stream().mapToInt(Deque::size).sum();
  }

  private static Kind kindOf(String method, String path) {
    if (path.endsWith("/$batch")) {
      return Kind.BATCH;
    }
    if (method.equals("GET") && path.endsWith("()")) {
      return Kind.QUERY_ENTITIES;
    }
    if (!path.endsWith("/Tables") && !method.equals("GET")) {
      return Kind.ENTITY_WRITE;
    }
    return Kind.OTHER;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      URI uri = exchange.getRequestURI();
      String path = uri.getRawPath();
      String query = uri.getRawQuery();
      byte[] body = exchange.getRequestBody().readAllBytes();
      Kind kind = kindOf(method, path);
      Map<String, String> continuation = continuationOf(query);
      Fault fault = next(kind, !continuation.isEmpty());
      if (fault != null && fault != Fault.PASS) {
        injected.add(kind + " " + fault);
      }
      if (fault == Fault.DROP_BEFORE) {
        return; // closed with no answer: the client sees the connection end
      }
      if (fault == Fault.THROTTLE || fault == Fault.THROTTLE_MS || fault == Fault.TIMEOUT_BEFORE) {
        answerError(exchange, fault);
        return;
      }
      if (fault == Fault.EMPTY_PAGE) {
        continuation.forEach(
            (name, value) -> exchange.getResponseHeaders().add("x-ms-continuation-" + name, value));
        answer(exchange, 200, "{\"value\":[]}".getBytes(StandardCharsets.UTF_8));
        return;
      }
      HttpResponse<byte[]> forwarded = forward(exchange, method, path, query, kind, body);
      if (fault == Fault.DROP_AFTER) {
        return;
      }
      if (fault == Fault.TIMEOUT_AFTER) {
        answerError(exchange, fault);
        return;
      }
      forwarded
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase()) && !name.startsWith(":")) {
                  values.forEach(value -> exchange.getResponseHeaders().add(name, value));
                }
              });
      answer(exchange, forwarded.statusCode(), forwarded.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Fault next(Kind kind, boolean hasContinuation) {
    Deque<Fault> faults = script.get(kind);
    if (faults == null) {
      return null;
    }
    synchronized (faults) {
      Fault fault = faults.peekFirst();
      if (fault == Fault.EMPTY_PAGE && !hasContinuation) {
        return null; // an empty page needs a position to repeat
      }
      return faults.pollFirst();
    }
  }

  private HttpResponse<byte[]> forward(
      HttpExchange exchange, String method, String path, String query, Kind kind, byte[] body)
      throws IOException, InterruptedException {
    String forwardedQuery = query;
    if (kind == Kind.QUERY_ENTITIES) {
      forwardedQuery = (query == null ? "" : query + "&") + "$top=" + pageSize;
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(target + path + (forwardedQuery == null ? "" : "?" + forwardedQuery)))
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!NOT_FORWARDED.contains(name.toLowerCase())) {
                values.forEach(value -> request.header(name, value));
              }
            });
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** An error as Azure answers it: the code in the JSON body only. */
  private static void answerError(HttpExchange exchange, Fault fault) throws IOException {
    boolean busy = fault == Fault.THROTTLE || fault == Fault.THROTTLE_MS;
    if (fault == Fault.THROTTLE) {
      exchange.getResponseHeaders().add("Retry-After", "1");
    } else if (fault == Fault.THROTTLE_MS) {
      exchange.getResponseHeaders().add("x-ms-retry-after-ms", "20");
    }
    String code = busy ? "ServerBusy" : "OperationTimedOut";
    exchange
        .getResponseHeaders()
        .add("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
    answer(
        exchange,
        busy ? 503 : 500,
        ("{\"odata.error\":{\"code\":\""
                + code
                + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"injected\\nRequestId:0\"}}}")
            .getBytes(StandardCharsets.UTF_8));
  }

  private static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
    boolean empty = body.length == 0 || status == 204;
    exchange.sendResponseHeaders(status, empty ? -1 : body.length);
    if (!empty) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** NextPartitionKey and NextRowKey of a query string, decoded. */
  private static Map<String, String> continuationOf(String query) {
    Map<String, String> continuation = new LinkedHashMap<>();
    if (query == null) {
      return continuation;
    }
    for (String parameter : query.split("&")) {
      int equals = parameter.indexOf('=');
      if (equals < 0) {
        continue;
      }
      String name = parameter.substring(0, equals);
      if (name.equals("NextPartitionKey") || name.equals("NextRowKey")) {
        continuation.put(
            name, URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return continuation;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
