package dev.trestle.server.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A response before it is written: status, headers in order, body bytes (empty for none). */
public final class ApiResponse {
  private final int status;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private List<ByteBuffer> body = List.of(ByteBuffer.wrap(new byte[0]));
  private long bodyLength;

  ApiResponse(int status) {
    this.status = status;
  }

  public static ApiResponse status(int status) {
    return new ApiResponse(status);
  }

  public ApiResponse header(String name, String value) {
    if (value != null) {
      headers.put(name, value);
    }
    return this;
  }

  public ApiResponse body(String contentType, byte[] content) {
    return body(contentType, List.of(ByteBuffer.wrap(content)), content.length);
  }

  /** A body in chunks, which are sent as they are (a large page is not copied into one array). */
  public ApiResponse body(String contentType, ChunkedBytes content) {
    return body(contentType, content.buffers(), content.length());
  }

  private ApiResponse body(String contentType, List<ByteBuffer> content, long length) {
    headers.put("Content-Type", contentType);
    this.body = content.isEmpty() ? List.of(ByteBuffer.wrap(new byte[0])) : List.copyOf(content);
    this.bodyLength = length;
    return this;
  }

  public ApiResponse body(String contentType, String content) {
    return body(contentType, content.getBytes(StandardCharsets.UTF_8));
  }

  public int status() {
    return status;
  }

  public Map<String, String> headers() {
    return headers;
  }

  public long bodyLength() {
    return bodyLength;
  }

  /** The body as buffers to send, each positioned at its start. */
  public List<ByteBuffer> bodyBuffers() {
    return body.stream().map(ByteBuffer::duplicate).toList();
  }

  /**
   * The body in one array (a copy when it is in chunks), for the small bodies that are embedded in
   * others.
   */
  public byte[] body() {
    ByteBuffer only = body.get(0);
    if (body.size() == 1
        && only.hasArray()
        && only.arrayOffset() == 0
        && only.position() == 0
        && only.remaining() == only.array().length) {
      return only.array();
    }
    byte[] bytes = new byte[Math.toIntExact(bodyLength)];
    int at = 0;
    for (ByteBuffer buffer : bodyBuffers()) {
      int n = buffer.remaining();
      buffer.get(bytes, at, n);
      at += n;
    }
    return bytes;
  }

  /** The reason phrase used in batch sub-response status lines. */
  public static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 201 -> "Created";
      case 202 -> "Accepted";
      case 204 -> "No Content";
      case 400 -> "Bad Request";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 412 -> "Precondition Failed";
      case 413 -> "Request Entity Too Large";
      case 415 -> "Unsupported Media Type";
      case 500 -> "Internal Server Error";
      case 501 -> "Not Implemented";
      case 503 -> "Service Unavailable";
      default -> "Status " + status;
    };
  }
}
