package dev.trestle.server.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 written by hand on one socket (plain or TLS), for what {@code java.net.http} will not
 * send: any Host header (host-style names that resolve nowhere), several requests on one kept-alive
 * connection. Bodies are read by Content-Length.
 */
public final class RawHttp implements AutoCloseable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;

  public RawHttp(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(10_000);
    this.out = socket.getOutputStream();
    this.in = socket.getInputStream();
  }

  /** A response: status, headers by lower-cased name, body as UTF-8 text. */
  public record Reply(int status, Map<String, String> headers, String body) {
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /**
   * Sends {@code method target} with these headers (name, value, ...) and the body, and reads the
   * answer; Host is {@code host}, Content-Length is added.
   */
  public Reply send(String method, String target, String host, String body, String... headers)
      throws IOException {
    StringBuilder request = new StringBuilder();
    request.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    request.append("Host: ").append(host).append("\r\n");
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
    }
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      request.append("Content-Length: ").append(content.length).append("\r\n");
    }
    request.append("\r\n");
    out.write(request.toString().getBytes(StandardCharsets.UTF_8));
    out.write(content);
    out.flush();
    return read();
  }

  private Reply read() throws IOException {
    String statusLine = line();
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).trim());
    }
    byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
    return new Reply(
        Integer.parseInt(statusLine.split(" ")[1]),
        headers,
        new String(body, StandardCharsets.UTF_8));
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed after: " + line);
      }
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
