package dev.trestle.server.internal.routing;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.json.MetadataLevel;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One Table API request, decoupled from Jetty so that a top-level request and an operation inside a
 * {@code $batch} are handled by the same code. {@code method} is the effective verb (after {@code
 * X-HTTP-Method} tunnelling).
 */
public final class HttpCall {
  private static final Set<String> TUNNELLED = Set.of("MERGE", "PUT", "DELETE", "PATCH");

  private final String method;
  private final Route route;
  private final Map<String, String> headers;
  private final Map<String, List<String>> query;
  private final byte[] body;
  private final String baseUrl;
  private final String account;
  private final boolean hostStyle;

  /**
   * @param baseUrl where the account's resources are, as the request addressed them: {@code
   *     scheme://host:port/account} (path-style) or {@code scheme://account.table.suffix}
   * @param hostStyle whether the request named the account in its host name
   */
  public HttpCall(
      String method,
      Route route,
      Map<String, String> headers,
      Map<String, List<String>> query,
      byte[] body,
      String baseUrl,
      String account,
      boolean hostStyle) {
    this.route = route;
    this.headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    this.headers.putAll(headers);
    this.query = query;
    this.body = body;
    this.baseUrl = baseUrl;
    this.account = account;
    this.hostStyle = hostStyle;
    this.method = effectiveMethod(method, headers);
  }

  /**
   * The effective verb, or null when X-HTTP-Method is refused (the refusal comes when the call is
   * built).
   */
  public static String effectiveMethodOrNull(String method, Map<String, String> headers) {
    try {
      return effectiveMethod(method, headers);
    } catch (TableException e) {
      return null;
    }
  }

  private static String effectiveMethod(String method, Map<String, String> headers) {
    String tunnel = null;
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase("X-HTTP-Method")) {
        tunnel = header.getValue();
      }
    }
    if (tunnel == null) {
      return method.toUpperCase(Locale.ROOT);
    }
    if (!method.equalsIgnoreCase("POST")) {
      throw new TableException(
          TableErrorCode.X_METHOD_NOT_USING_POST,
          "The HTTP method specified in the X-HTTP-Method header is only allowed with POST requests.");
    }
    if (tunnel.contains(",")) {
      throw new TableException(
          TableErrorCode.X_METHOD_INCORRECT_COUNT,
          "More than one HTTP method is specified in the X-HTTP-Method header.");
    }
    String verb = tunnel.trim().toUpperCase(Locale.ROOT);
    if (!TUNNELLED.contains(verb)) {
      throw new TableException(
          TableErrorCode.X_METHOD_INCORRECT_VALUE,
          "The HTTP method specified in the X-HTTP-Method header is not valid.");
    }
    return verb;
  }

  public String method() {
    return method;
  }

  public Route route() {
    return route;
  }

  public byte[] body() {
    return body;
  }

  public String account() {
    return account;
  }

  /**
   * {@code scheme://host:port/account} or, host-style, {@code scheme://account.table.suffix}: for
   * odata.metadata, odata.id and Location, which keep the style of the request.
   */
  public String baseUrl() {
    return baseUrl;
  }

  /** Whether the request named the account in its host name; a batch's parts are read alike. */
  public boolean hostStyle() {
    return hostStyle;
  }

  /** A header value, or null. */
  public String header(String name) {
    return headers.get(name);
  }

  /**
   * The value of a query parameter, or null. A parameter given twice is refused rather than read by
   * its first value: OData allows each system query option once, and the signature covers every
   * value, not the first.
   */
  public String query(String name) {
    List<String> values = query.get(name);
    if (values != null && values.size() > 1) {
      throw new TableException(
          TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
          "Value for one of the query parameters specified in the request URI is invalid: "
              + name
              + " is given more than once.");
    }
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  public MetadataLevel metadataLevel() {
    return MetadataLevel.negotiate(query("$format"), header("Accept"));
  }

  /** The refusal of a verb the addressed resource does not take. */
  public static TableException methodNotAllowed() {
    return new TableException(
        TableErrorCode.METHOD_NOT_ALLOWED,
        "The requested method is not allowed on the specified resource.");
  }
}
