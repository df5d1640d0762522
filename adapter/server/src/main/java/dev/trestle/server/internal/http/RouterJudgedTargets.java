package dev.trestle.server.internal.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.ComplianceViolation;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;

/**
 * Lets the router, not Jetty's URI parser, refuse a request path with a broken escape ({@code %zz},
 * a lone {@code %}) or an encoded NUL ({@code %00}). Jetty refuses those before reading the headers
 * and closes the connection with the body unread; a client still sending its body then meets a
 * reset and may lose the 400 it was sent. Here such an escape reaches the router as {@code %FF}, a
 * byte no UTF-8 text holds, which the router's strict decoding answers with 400 InvalidInput as a
 * normal request: the body is read and the connection stays usable. It also answers an expectation
 * Jetty would leave unanswered.
 */
final class RouterJudgedTargets implements HttpParser.RequestHandler {
  /** What replaces each refused escape: valid as an escape, invalid as UTF-8. */
  static final String INVALID_UTF8 = "%FF";

  private final HttpParser.RequestHandler jetty;

  RouterJudgedTargets(HttpParser.RequestHandler jetty) {
    this.jetty = jetty;
  }

  @Override
  public void startRequest(String method, String uri, HttpVersion version) {
    jetty.startRequest(method, passable(uri), version);
  }

  /** The target with every escape Jetty would refuse in its path replaced; others unchanged. */
  static String passable(String target) {
    int start = pathStart(target);
    int end = pathEnd(target, start);
    StringBuilder out = null;
    int copied = start;
    for (int i = target.indexOf('%', start); i >= 0 && i < end; i = target.indexOf('%', i + 1)) {
      boolean wellFormed =
          i + 2 < end && isHex(target.charAt(i + 1)) && isHex(target.charAt(i + 2));
      if (wellFormed && !isEncodedNul(target, i, end)) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(target.length() + 8).append(target, 0, start);
      }
      out.append(target, copied, i).append(INVALID_UTF8);
      // an encoded NUL is replaced whole; a broken escape loses only its '%'
      copied = isEncodedNul(target, i, end) ? i + 3 : i + 1;
    }
    return out == null ? target : out.append(target, copied, target.length()).toString();
  }

  private static boolean isEncodedNul(String target, int percent, int end) {
    return percent + 2 < end
        && target.charAt(percent + 1) == '0'
        && target.charAt(percent + 2) == '0';
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0 && c < 128;
  }

  /** Where the path begins: at once for origin form, after the authority for absolute form. */
  private static int pathStart(String target) {
    int scheme = target.indexOf("://");
    if (target.startsWith("/") || scheme < 0) {
      return 0;
    }
    int slash = target.indexOf('/', scheme + 3);
    return slash < 0 ? target.length() : slash;
  }

  private static int pathEnd(String target, int start) {
    for (int i = start; i < target.length(); i++) {
      char c = target.charAt(i);
      if (c == '?' || c == '#') {
        return i;
      }
    }
    return target.length();
  }

  @Override
  public void messageBegin() {
    jetty.messageBegin();
  }

  /**
   * Refuses an {@code Expect} other than {@code 100-continue} as a header the parser cannot take
   * (417, through the error handler): Jetty 12.0 notices such an expectation only once the headers
   * are complete, and then closes the connection without an answer.
   */
  @Override
  public void parsedHeader(HttpField field) {
    if (field.getHeader() == HttpHeader.EXPECT && !knownExpectations(field)) {
      throw new BadMessageException(
          HttpStatus.EXPECTATION_FAILED_417,
          "the expectation '" + field.getValue() + "' is not supported");
    }
    jetty.parsedHeader(field);
  }

  private static boolean knownExpectations(HttpField field) {
    for (String expectation : field.getValues()) {
      if (!expectation.equalsIgnoreCase(HttpHeaderValue.CONTINUE.asString())
          && !expectation.equalsIgnoreCase(HttpHeaderValue.PROCESSING.asString())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean headerComplete() {
    return jetty.headerComplete();
  }

  @Override
  public boolean content(ByteBuffer item) {
    return jetty.content(item);
  }

  @Override
  public boolean contentComplete() {
    return jetty.contentComplete();
  }

  @Override
  public boolean messageComplete() {
    return jetty.messageComplete();
  }

  @Override
  public void parsedTrailer(HttpField field) {
    jetty.parsedTrailer(field);
  }

  @Override
  public void earlyEOF() {
    jetty.earlyEOF();
  }

  @Override
  public void onViolation(ComplianceViolation.Event event) {
    jetty.onViolation(event);
  }

  @Override
  public void badMessage(HttpException failure) {
    jetty.badMessage(failure);
  }
}
