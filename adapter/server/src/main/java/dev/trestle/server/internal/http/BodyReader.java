package dev.trestle.server.internal.http;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request body up to a limit; nothing above the limit is ever buffered. A body that passes
 * the limit is read on and thrown away up to {@link #DISCARD_LIMIT}, so that a client still sending
 * it can read the 413 answer instead of a reset connection; a body declared larger than that is
 * refused without reading it.
 */
public final class BodyReader {
  static final long DISCARD_LIMIT = 32L * 1024 * 1024;
  private static final String READ_ATTRIBUTE = BodyReader.class.getName() + ".read";

  private BodyReader() {}

  public static byte[] read(Request request, int limit) {
    long declared = request.getLength();
    if (declared > Math.max(DISCARD_LIMIT, limit)) {
      throw tooLarge();
    }
    request.setAttribute(READ_ATTRIBUTE, Boolean.TRUE);
    try (InputStream in = Content.Source.asInputStream(request)) {
      if (declared > limit) {
        discard(in);
        throw tooLarge();
      }
      if (declared >= 0) {
        // the declared length read straight into the array handed on, never copied
        byte[] body = new byte[(int) declared];
        int read = in.readNBytes(body, 0, body.length);
        if (read == body.length && in.read() < 0) {
          return body;
        }
        if (read < body.length) {
          throw new IOException("The request body ended before its declared length");
        }
        discard(in);
        throw tooLarge();
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
      byte[] buffer = new byte[16 * 1024];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (out.size() + n > limit) {
          discard(in);
          throw tooLarge();
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      // the rest of the body is unread: the connection cannot carry another request
      request.setAttribute(READ_ATTRIBUTE, Boolean.FALSE);
      if (timedOut(e)) {
        throw new TableException(
            TableErrorCode.OPERATION_TIMED_OUT,
            "The operation could not be completed within the permitted time: the request body arrived too slowly.",
            e);
      }
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "The request body could not be read.", e);
    }
  }

  /**
   * A body cut off for arriving too slowly ({@link BodyRateHandler}) or not at all (the idle
   * timeout).
   */
  private static boolean timedOut(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads and drops whatever the answer left unread of the body (a request refused before its body
   * mattered), so that the connection can carry the client's next request. Returns false when the
   * connection must close instead: the rest is too large to drain, the client has not sent it yet
   * because it waits for a 100 Continue, or it could not be read (now, or earlier by {@link
   * #read}). Without this Jetty closes the connection silently, and a client that reuses it fails.
   */
  public static boolean drain(Request request) {
    if (request.getAttribute(READ_ATTRIBUTE) instanceof Boolean read) {
      return read;
    }
    long declared = request.getLength();
    if (declared == 0) {
      return true;
    }
    if (declared > DISCARD_LIMIT
        || request.getHeaders().contains(HttpHeader.EXPECT, "100-continue")) {
      return false;
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      discard(in);
      return in.read() < 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static void discard(InputStream in) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    long total = 0;
    int n;
    while (total < DISCARD_LIMIT && (n = in.read(buffer)) >= 0) {
      total += n;
    }
  }

  static TableException tooLarge() {
    return new TableException(
        TableErrorCode.REQUEST_BODY_TOO_LARGE,
        "The request body is too large and exceeds the maximum permissible limit.");
  }
}
