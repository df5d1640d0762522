package dev.trestle.server.internal.http;

import dev.trestle.server.events.RequestListener;
import dev.trestle.server.events.RequestListener.FinishedRequest;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the request listeners about each request around the Table API handler: started before it,
 * finished once its response is sent (or fails: 500). The operation is the one Table API handler
 * decided on at dispatch; a request that never got that far (an unreadable path) is {@code Other}.
 */
public final class RequestEvents extends Handler.Wrapper {
  private static final Logger LOG = LoggerFactory.getLogger(RequestEvents.class);
  private static final String OPERATION = RequestEvents.class.getName() + ".operation";
  private static final String ACCOUNT = RequestEvents.class.getName() + ".account";
  public static final String OTHER = "Other";

  private final List<RequestListener> listeners;

  public RequestEvents(Handler tableApi, List<RequestListener> listeners) {
    super(tableApi);
    this.listeners = List.copyOf(listeners);
  }

  /** Records the operation the dispatcher decided on, for the listeners. */
  public static void decided(Request request, String operation) {
    request.setAttribute(OPERATION, operation);
  }

  /** Records the account the request addressed, for the listeners. */
  public static void addressed(Request request, String account) {
    request.setAttribute(ACCOUNT, account);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long start = System.nanoTime();
    notify(RequestListener::requestStarted);
    Callback finishing =
        new Callback.Nested(callback) {
          @Override
          public void succeeded() {
            finished(request, response, response.getStatus(), start);
            super.succeeded();
          }

          @Override
          public void failed(Throwable failure) {
            finished(request, response, 500, start);
            super.failed(failure);
          }
        };
    boolean handled;
    try {
      handled = super.handle(request, response, finishing);
    } catch (Exception | Error e) {
      finished(request, response, 500, start);
      throw e;
    }
    if (!handled) {
      finished(request, response, 404, start);
    }
    return handled;
  }

  private void finished(Request request, Response response, int status, long start) {
    Object operation = request.getAttribute(OPERATION);
    FinishedRequest finished =
        new FinishedRequest(
            request.getMethod(),
            request.getHttpURI().getPath(),
            operation == null ? OTHER : operation.toString(),
            status,
            Duration.ofNanos(System.nanoTime() - start),
            response.getHeaders().get("x-ms-request-id"),
            request.getHeaders().get("x-ms-client-request-id"),
            redactSignature(request.getHttpURI().getQuery()),
            response.getHeaders().get("x-ms-error-code"),
            Request.getContentBytesRead(request),
            Response.getContentBytesWritten(response),
            (String) request.getAttribute(ACCOUNT));
    notify(listener -> listener.requestFinished(finished));
  }

  /** The query with every {@code sig} value replaced: a SAS signature is a credential. */
  static String redactSignature(String query) {
    if (query == null || query.isEmpty()) {
      return null;
    }
    StringBuilder redacted = new StringBuilder(query.length());
    for (String pair : query.split("&", -1)) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      if (!redacted.isEmpty()) {
        redacted.append('&');
      }
      // compared decoded and in any case, so that no spelling of the name slips through
      redacted.append(decodedName(name).equalsIgnoreCase("sig") ? name + "=REDACTED" : pair);
    }
    return redacted.toString();
  }

  private static String decodedName(String name) {
    try {
      return PercentCodec.decodeQuery(name);
    } catch (dev.trestle.TableException e) {
      return name;
    }
  }

  private void notify(java.util.function.Consumer<RequestListener> event) {
    for (RequestListener listener : listeners) {
      try {
        event.accept(listener);
      } catch (RuntimeException e) {
        LOG.warn("Request listener {} failed; the request is unaffected", listener, e);
      }
    }
  }
}
