package dev.trestle.server.internal.cors;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CORS rules of an account, evaluated as the storage services do: in order, the first rule that
 * matches wins. Preflights ({@code OPTIONS}) are answered from the rules alone, without
 * authentication; actual requests get headers added but never fail because of CORS.
 */
public final class CorsPolicy {
  public static final String ALLOW_ORIGIN = "Access-Control-Allow-Origin";
  public static final String ALLOW_METHODS = "Access-Control-Allow-Methods";
  public static final String ALLOW_HEADERS = "Access-Control-Allow-Headers";
  public static final String ALLOW_CREDENTIALS = "Access-Control-Allow-Credentials";
  public static final String EXPOSE_HEADERS = "Access-Control-Expose-Headers";
  public static final String MAX_AGE = "Access-Control-Max-Age";
  public static final String VARY = "Vary";

  private final List<CorsRule> rules;

  public CorsPolicy(List<CorsRule> rules) {
    this.rules = rules == null ? List.of() : List.copyOf(rules);
  }

  /** True when at least one rule is set. */
  public boolean enabled() {
    return !rules.isEmpty();
  }

  /**
   * The headers of a 200 answer to a preflight.
   *
   * @param origin the {@code Origin} header
   * @param method the {@code Access-Control-Request-Method} header
   * @param requestHeaders the {@code Access-Control-Request-Headers} header, or null
   * @throws TableException 400 {@code InvalidHeaderValue} without origin or method (the storage
   *     services' CORS rules: "A required CORS header is not present"), 403 {@code
   *     CorsPreflightFailure} when CORS is off or no rule allows the origin, method and every
   *     header
   */
  public Map<String, String> matchPreflight(String origin, String method, String requestHeaders) {
    if (origin == null || origin.isBlank() || method == null || method.isBlank()) {
      throw new TableException(
          TableErrorCode.INVALID_HEADER_VALUE,
          "A required CORS header is not present: "
              + (origin == null || origin.isBlank() ? "Origin" : "Access-Control-Request-Method")
              + ".");
    }
    List<String> headers = CorsRule.split(requestHeaders);
    for (CorsRule rule : rules) {
      if (rule.allowsOrigin(origin)
          && rule.allowsMethod(method)
          && headers.stream().allMatch(rule::allowsHeader)) {
        Map<String, String> response = new LinkedHashMap<>();
        response.put(ALLOW_ORIGIN, rule.allowsAnyOrigin() ? "*" : origin);
        response.put(ALLOW_METHODS, method);
        if (!headers.isEmpty()) {
          response.put(ALLOW_HEADERS, String.join(",", headers));
        }
        response.put(MAX_AGE, Integer.toString(rule.maxAgeInSeconds()));
        if (!rule.allowsAnyOrigin()) {
          response.put(ALLOW_CREDENTIALS, "true");
        }
        return response;
      }
    }
    throw new TableException(
        TableErrorCode.CORS_PREFLIGHT_FAILURE,
        "CORS not enabled or no matching rule found for this request.");
  }

  /**
   * The CORS headers to add to the response of an actual request (empty when none apply).
   *
   * <p>A rule matching origin and method adds {@code Access-Control-Allow-Origin} ({@code *} for an
   * any-origin rule, else the origin, with {@code Access-Control-Allow-Credentials: true}) and
   * {@code Access-Control-Expose-Headers}. {@code Vary: Origin} goes on GET/HEAD responses whenever
   * CORS is on, except when an any-origin rule matched (the response is then the same for every
   * origin).
   *
   * @param origin the {@code Origin} header, or null
   * @param method the request's HTTP method
   * @param responseHeaderNames the headers the response carries, which expand prefixes such as
   *     {@code x-ms-*} in the rule's exposed headers
   */
  public Map<String, String> matchRequest(
      String origin, String method, Collection<String> responseHeaderNames) {
    Map<String, String> response = new LinkedHashMap<>();
    if (rules.isEmpty()) {
      return response;
    }
    boolean cacheable = "GET".equalsIgnoreCase(method) || "HEAD".equalsIgnoreCase(method);
    CorsRule match = null;
    for (CorsRule rule : rules) {
      if ((origin == null ? rule.allowsAnyOrigin() : rule.allowsOrigin(origin))
          && rule.allowsMethod(method)) {
        match = rule;
        break;
      }
    }
    if (match == null) {
      if (cacheable) {
        response.put(VARY, "Origin");
      }
      return response;
    }
    response.put(ALLOW_ORIGIN, match.allowsAnyOrigin() ? "*" : origin);
    String exposed = exposedHeaders(match, responseHeaderNames);
    if (!exposed.isEmpty()) {
      response.put(EXPOSE_HEADERS, exposed);
    }
    if (!match.allowsAnyOrigin()) {
      response.put(ALLOW_CREDENTIALS, "true");
      if (cacheable) {
        response.put(VARY, "Origin");
      }
    }
    return response;
  }

  /**
   * Literal names as configured; prefixes expanded to the response's own headers that start with
   * them.
   */
  private static String exposedHeaders(CorsRule rule, Collection<String> responseHeaderNames) {
    Set<String> exposed = new LinkedHashSet<>();
    List<String> prefixes = new ArrayList<>();
    for (String header : rule.exposedHeaders()) {
      if (HeaderPatterns.isPrefix(header)) {
        prefixes.add(header);
      } else {
        exposed.add(header);
      }
    }
    if (!prefixes.isEmpty() && responseHeaderNames != null) {
      for (String name : responseHeaderNames) {
        if (HeaderPatterns.matches(prefixes, name)) {
          exposed.add(name);
        }
      }
    }
    return String.join(",", exposed);
  }
}
