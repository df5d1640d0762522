package dev.trestle.server.auth.internal;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request as the server would adapt it: raw path, decoded query parameters, headers by any case.
 */
final class FakeRequest implements SignedRequest {
  private String method;
  private String rawPath;
  private final Map<String, List<String>> query = new LinkedHashMap<>();
  private final Map<String, String> headers = new LinkedHashMap<>();
  private String remoteAddress = "127.0.0.1";
  private boolean secure;

  FakeRequest(String method, String rawPath) {
    this.method = method;
    this.rawPath = rawPath;
  }

  /**
   * From a URL such as {@code http://127.0.0.1:10002/devstoreaccount1/Tables?comp=acl}; the query
   * is decoded.
   */
  static FakeRequest of(String method, String url) {
    URI uri = URI.create(url);
    FakeRequest request = new FakeRequest(method, uri.getRawPath());
    request.secure = "https".equals(uri.getScheme());
    String rawQuery = uri.getRawQuery();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        request.query.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
      }
    }
    return request;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  FakeRequest header(String name, String value) {
    headers.entrySet().removeIf(e -> e.getKey().equalsIgnoreCase(name));
    if (value != null) {
      headers.put(name, value);
    }
    return this;
  }

  FakeRequest param(String name, String value) {
    if (value == null) {
      query.remove(name);
    } else {
      query.put(name, new ArrayList<>(List.of(value)));
    }
    return this;
  }

  FakeRequest method(String method) {
    this.method = method;
    return this;
  }

  FakeRequest path(String rawPath) {
    this.rawPath = rawPath;
    return this;
  }

  FakeRequest from(String remoteAddress) {
    this.remoteAddress = remoteAddress;
    return this;
  }

  FakeRequest secure(boolean secure) {
    this.secure = secure;
    return this;
  }

  FakeRequest copy() {
    FakeRequest copy = new FakeRequest(method, rawPath);
    query.forEach((k, v) -> copy.query.put(k, new ArrayList<>(v)));
    copy.headers.putAll(headers);
    copy.remoteAddress = remoteAddress;
    copy.secure = secure;
    return copy;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String rawPath() {
    return rawPath;
  }

  @Override
  public List<String> queryParameters(String name) {
    return query.getOrDefault(name, List.of());
  }

  @Override
  public String header(String name) {
    return headers.entrySet().stream()
        .filter(e -> e.getKey().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public boolean secure() {
    return secure;
  }

  @Override
  public String toString() {
    return method + " " + rawPath + " " + query + " " + headers;
  }
}
