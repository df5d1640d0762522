package dev.trestle.server.internal.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A response before it is written: status, headers in order, body bytes (empty for none). */
public final class ApiResponse {
  private final int status;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private byte[] body = new byte[0];

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
    headers.put("Content-Type", contentType);
    this.body = content;
    return this;
  }

  public ApiResponse body(String contentType, String content) {
    return body(contentType, content.getBytes(StandardCharsets.UTF_8));
  }

  public int status() { return status; }
  public Map<String, String> headers() { return headers; }
  public byte[] body() { return body; }

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
