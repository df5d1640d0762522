package dev.trestle.server.internal.batch;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Splits a {@code multipart/mixed} body into parts. Works on ISO-8859-1 text so that offsets are
 * byte offsets and part bodies come back byte for byte. Accepts CRLF and bare LF line ends.
 * Anything malformed is {@code InvalidInput}.
 */
final class MultipartReader {
  private MultipartReader() {}

  /** One part: its headers (case-insensitive names) and its content, as ISO-8859-1 text. */
  record Part(Map<String, String> headers, String content) {
    String header(String name) {
      return headers.get(name);
    }

    byte[] contentBytes() {
      return content.getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  /** The boundary parameter of a multipart Content-Type (quotes removed), or InvalidInput. */
  static String boundary(String contentType) {
    if (contentType == null
        || !contentType.trim().toLowerCase(Locale.ROOT).startsWith("multipart/mixed")) {
      throw malformed("The batch request must have a multipart/mixed content type.");
    }
    for (String parameter : contentType.split(";")) {
      String trimmed = parameter.trim();
      if (trimmed.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
        String value = trimmed.substring("boundary=".length()).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        if (value.isEmpty() || value.length() > 200) {
          throw malformed("The multipart boundary is not valid.");
        }
        return value;
      }
    }
    throw malformed("The multipart content type has no boundary.");
  }

  static List<Part> parts(String body, String boundary) {
    String delimiter = "--" + boundary;
    int start = findDelimiter(body, delimiter, 0);
    if (start < 0) {
      throw malformed("The batch request body has no part.");
    }
    List<Part> parts = new ArrayList<>();
    int cursor = start + delimiter.length();
    while (true) {
      if (body.startsWith("--", cursor)) {
        return parts;
      }
      int lineEnd = body.indexOf('\n', cursor);
      if (lineEnd < 0) {
        throw malformed("The batch request body ends inside a part.");
      }
      int contentStart = lineEnd + 1;
      int next = findDelimiter(body, delimiter, contentStart);
      if (next < 0) {
        throw malformed("The batch request body is missing its closing boundary.");
      }
      int contentEnd = next;
      // the line break before a delimiter belongs to the delimiter
      if (contentEnd > contentStart && body.charAt(contentEnd - 1) == '\n') {
        contentEnd--;
        if (contentEnd > contentStart && body.charAt(contentEnd - 1) == '\r') {
          contentEnd--;
        }
      }
      parts.add(part(body.substring(contentStart, Math.max(contentStart, contentEnd))));
      cursor = next + delimiter.length();
    }
  }

  /** A delimiter counts only at the start of a line. */
  private static int findDelimiter(String body, String delimiter, int from) {
    int at = body.indexOf(delimiter, from);
    while (at >= 0) {
      if (at == 0 || body.charAt(at - 1) == '\n') {
        return at;
      }
      at = body.indexOf(delimiter, at + 1);
    }
    return -1;
  }

  /** Headers up to the first empty line, then the content. */
  static Part part(String text) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    int cursor = 0;
    while (true) {
      int lineEnd = text.indexOf('\n', cursor);
      String line = lineEnd < 0 ? text.substring(cursor) : text.substring(cursor, lineEnd);
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (line.isEmpty()) {
        return new Part(headers, lineEnd < 0 ? "" : text.substring(lineEnd + 1));
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw malformed("A part header is malformed.");
      }
      headers.merge(
          line.substring(0, colon).trim(), line.substring(colon + 1).trim(), (a, b) -> a + "," + b);
      if (lineEnd < 0) {
        return new Part(headers, "");
      }
      cursor = lineEnd + 1;
    }
  }

  static TableException malformed(String message) {
    return new TableException(TableErrorCode.INVALID_INPUT, message);
  }
}
