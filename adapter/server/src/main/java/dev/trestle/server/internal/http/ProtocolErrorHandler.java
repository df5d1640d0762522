package dev.trestle.server.internal.http;

import dev.trestle.TableErrorCode;
import dev.trestle.json.MetadataLevel;
import java.nio.ByteBuffer;
import java.time.Clock;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers what Jetty refuses before the Table API sees it (a request line, URI or header it cannot
 * parse or that arrives too slowly, a request arriving during shutdown) as the service answers
 * errors: OData JSON with {@code x-ms-error-code} and a request id, instead of Jetty's HTML page
 * that no SDK can read.
 */
public final class ProtocolErrorHandler extends ErrorHandler {
  private final Clock clock;

  public ProtocolErrorHandler(Clock clock) {
    this.clock = clock;
  }

  /**
   * Every method gets the error body: Jetty's default writes one only for GET, POST and HEAD, which
   * left a PUT, MERGE or DELETE refused during shutdown (or with an oversized header) without a
   * code to act on.
   */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int status,
      String message,
      Throwable cause,
      Callback callback) {
    TableErrorCode code = codeFor(status);
    String requestId = RequestIds.next();
    String text =
        switch (code) {
          case SERVER_BUSY ->
              "The server is currently unable to receive requests. Please retry your request.";
          case REQUEST_BODY_TOO_LARGE ->
              "The request body is too large and exceeds the maximum permissible limit.";
          case INTERNAL_ERROR ->
              "Server encountered an internal error. Please try again after some time.";
          case OPERATION_TIMED_OUT ->
              "The operation could not be completed within the permitted time"
                  + (message == null || message.isBlank() ? "." : ": " + message + ".");
          default ->
              "The request could not be read"
                  + (message == null || message.isBlank() ? "." : ": " + message + ".");
        };
    ApiResponse error =
        ErrorResponses.json(
            status,
            code.code(),
            ErrorResponses.messageWithTrailer(text, requestId, clock.instant()),
            MetadataLevel.MINIMAL);
    response.setStatus(status);
    response.getHeaders().put("x-ms-request-id", requestId);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    error.headers().forEach(response.getHeaders()::put);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, error.body().length);
    if (code != TableErrorCode.SERVER_BUSY) {
      // Jetty drops the connection after a request it could not parse; saying so keeps clients from
      // reusing it
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      drainQuietly(request);
    }
    boolean head = "HEAD".equalsIgnoreCase(request.getMethod());
    response.write(true, head ? null : ByteBuffer.wrap(error.body()), callback);
  }

  /**
   * Reads what the client sent of a body Jetty could still parse (a refused URI, say) before the
   * answer: closing a socket with unread bytes makes the kernel reset it, and the client then loses
   * the answer it was sent (it sees a broken pipe instead of the 400).
   */
  private static void drainQuietly(Request request) {
    try {
      BodyReader.drain(request);
    } catch (RuntimeException unreadable) {
      // a request the parser gave up on has no body to read: the answer goes out as it is
    }
  }

  /**
   * The service's code for a status Jetty chose: the specific one where there is one, else the
   * generic one.
   */
  static TableErrorCode codeFor(int status) {
    return switch (status) {
      case 408 -> TableErrorCode.OPERATION_TIMED_OUT;
      case 413 -> TableErrorCode.REQUEST_BODY_TOO_LARGE;
      case 503 -> TableErrorCode.SERVER_BUSY;
      // an HTTP version Jetty does not speak is the client's request, not a failure of the server
      case 505 -> TableErrorCode.INVALID_INPUT;
      default -> status >= 500 ? TableErrorCode.INTERNAL_ERROR : TableErrorCode.INVALID_INPUT;
    };
  }
}
