package dev.trestle.cli.transfer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A Table endpoint that answers from a script, as Azure may: pages with continuation headers (also
 * empty ones), throttling (503 ServerBusy with Retry-After), timeouts (500 OperationTimedOut),
 * refused batches. It records each request ({@code METHOD path?query}) for the test to check what
 * the client sent.
 */
final class FakeTableEndpoint implements AutoCloseable {
  /** One scripted answer. */
  record Answer(int status, Map<String, String> headers, String body) {
    static Answer error(int status, String code) {
      return new Answer(
          status,
          Map.of("x-ms-error-code", code, "Content-Type", "application/json"),
          "{\"odata.error\":{\"code\":\"" + code + "\",\"message\":{\"value\":\"scripted\"}}}");
    }

    /**
     * A refusal as Azure answers at version 2019-02-02: the code in the JSON body only, no {@code
     * x-ms-error-code} header.
     */
    static Answer azureError(int status, String code, Map<String, String> headers) {
      Map<String, String> all = new java.util.HashMap<>(headers);
      all.put(
          "Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
      return new Answer(
          status,
          all,
          "{\"odata.error\":{\"code\":\""
              + code
              + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"scripted\\nRequestId:x\"}}}");
    }

    static Answer ok(String json, Map<String, String> headers) {
      return new Answer(200, headers, json);
    }

    static Answer noContent() {
      return new Answer(204, Map.of(), "");
    }
  }

  private final Deque<Answer> script = new ArrayDeque<>();
  private final List<String> requests = new ArrayList<>();
  private final Server server = new Server();

  FakeTableEndpoint() throws Exception {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            Content.Source.asString(request);
            Answer answer;
            synchronized (FakeTableEndpoint.this) {
              requests.add(request.getMethod() + " " + request.getHttpURI().getPathQuery());
              answer = script.poll();
            }
            if (answer == null) {
              answer = Answer.error(500, "ScriptEnded");
            }
            response.setStatus(answer.status());
            answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
            Content.Sink.write(response, true, answer.body(), callback);
            return true;
          }
        });
    server.start();
  }

  /** The endpoint URL of account {@code acct}, path-style. */
  String endpoint() {
    return "http://127.0.0.1:"
        + ((ServerConnector) server.getConnectors()[0]).getLocalPort()
        + "/acct";
  }

  synchronized FakeTableEndpoint then(Answer answer) {
    script.add(answer);
    return this;
  }

  /** The requests so far, and forgets them. */
  synchronized List<String> requests() {
    List<String> seen = List.copyOf(requests);
    requests.clear();
    return seen;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
