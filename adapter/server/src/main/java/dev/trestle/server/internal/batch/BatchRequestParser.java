package dev.trestle.server.internal.batch;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads a {@code $batch} body: one change set of operations, or a single query. */
final class BatchRequestParser {
  private BatchRequestParser() {}

  /**
   * An operation inside the batch, still unparsed beyond its HTTP framing. Its part's {@code
   * Content-ID} is not kept: Azure links no operations by it and echoes it in no answer (recorded).
   */
  record InnerRequest(String method, String target, Map<String, String> headers, byte[] body) {}

  /** What the batch holds: a change set of writes, or one query (outside any change set). */
  record Batch(List<InnerRequest> changeSet, InnerRequest query) {}

  static Batch parse(String contentType, byte[] body) {
    String boundary = MultipartReader.boundary(contentType);
    List<MultipartReader.Part> parts =
        MultipartReader.parts(new String(body, StandardCharsets.ISO_8859_1), boundary);
    if (parts.size() != 1) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "A batch request must contain exactly one change set or one query.");
    }
    MultipartReader.Part part = parts.get(0);
    String partType = part.header("Content-Type");
    if (partType != null && partType.toLowerCase(Locale.ROOT).startsWith("multipart/mixed")) {
      String changeSetBoundary = MultipartReader.boundary(partType);
      List<InnerRequest> operations = new ArrayList<>();
      for (MultipartReader.Part operation :
          MultipartReader.parts(part.content(), changeSetBoundary)) {
        operations.add(inner(operation));
      }
      return new Batch(operations, null);
    }
    InnerRequest query = inner(part);
    if (!query.method().equals("GET")) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "An operation outside a change set must be a query (GET).");
    }
    return new Batch(null, query);
  }

  private static InnerRequest inner(MultipartReader.Part part) {
    String type = part.header("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/http")) {
      throw MultipartReader.malformed("A batch part must have the content type application/http.");
    }
    String content = part.content();
    int lineEnd = content.indexOf('\n');
    if (lineEnd < 0) {
      throw MultipartReader.malformed("A batch part has no request line.");
    }
    String requestLine = utf8(content.substring(0, lineEnd).trim());
    String[] words = requestLine.split(" ");
    if (words.length != 3 || !words[2].startsWith("HTTP/")) {
      throw MultipartReader.malformed("A batch part has a malformed request line.");
    }
    MultipartReader.Part request = MultipartReader.part(content.substring(lineEnd + 1));
    byte[] requestBody = request.contentBytes();
    String length = request.header("Content-Length");
    if (length != null) {
      try {
        int declared = Integer.parseInt(length.trim());
        if (declared >= 0 && declared < requestBody.length) {
          requestBody = java.util.Arrays.copyOf(requestBody, declared);
        }
      } catch (NumberFormatException e) {
        throw MultipartReader.malformed("A batch part has an invalid Content-Length.");
      }
    }
    return new InnerRequest(
        words[0].toUpperCase(Locale.ROOT), words[1], request.headers(), requestBody);
  }

  private static String utf8(String latin1) {
    return new String(latin1.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  /** The raw path and raw query of an inner request's URL, absolute or relative. */
  static String[] pathAndQuery(String target) {
    String rest = target;
    if (!rest.startsWith("/")) {
      try {
        URI uri = URI.create(rest.replace(" ", "%20"));
        if (uri.getRawPath() == null) {
          throw MultipartReader.malformed("A batch part has a malformed URL.");
        }
        return new String[] {uri.getRawPath(), uri.getRawQuery()};
      } catch (IllegalArgumentException e) {
        int scheme = rest.indexOf("://");
        int slash = scheme < 0 ? -1 : rest.indexOf('/', scheme + 3);
        if (slash < 0) {
          throw MultipartReader.malformed("A batch part has a malformed URL.");
        }
        rest = rest.substring(slash);
      }
    }
    int question = rest.indexOf('?');
    return question < 0
        ? new String[] {rest, null}
        : new String[] {rest.substring(0, question), rest.substring(question + 1)};
  }
}
