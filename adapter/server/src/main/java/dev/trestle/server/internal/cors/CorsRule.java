package dev.trestle.server.internal.cors;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One CORS rule of the service properties. Origins are full origins or {@code *}; headers are
 * names, prefixes ending in {@code *} (such as {@code x-ms-meta*}) or {@code *}; methods are
 * upper-case HTTP verbs.
 */
public record CorsRule(
    List<String> allowedOrigins,
    List<String> allowedMethods,
    List<String> allowedHeaders,
    List<String> exposedHeaders,
    int maxAgeInSeconds) {

  public CorsRule {
    allowedOrigins = allowedOrigins == null ? List.of() : List.copyOf(allowedOrigins);
    allowedMethods =
        allowedMethods == null
            ? List.of()
            : allowedMethods.stream().map(m -> m.toUpperCase(Locale.ROOT)).toList();
    allowedHeaders = allowedHeaders == null ? List.of() : List.copyOf(allowedHeaders);
    exposedHeaders = exposedHeaders == null ? List.of() : List.copyOf(exposedHeaders);
  }

  /** From the comma-separated lists of the XML document; blanks around items are dropped. */
  public static CorsRule of(
      String allowedOrigins,
      String allowedMethods,
      String allowedHeaders,
      String exposedHeaders,
      int maxAgeInSeconds) {
    return new CorsRule(
        split(allowedOrigins),
        split(allowedMethods),
        split(allowedHeaders),
        split(exposedHeaders),
        maxAgeInSeconds);
  }

  static List<String> split(String list) {
    if (list == null) {
      return List.of();
    }
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /**
   * True when the rule allows every origin ({@code *}); responses then carry {@code *} and no
   * credentials.
   */
  public boolean allowsAnyOrigin() {
    return allowedOrigins.contains("*");
  }

  boolean allowsOrigin(String origin) {
    return allowsAnyOrigin()
        || origin != null && allowedOrigins.stream().anyMatch(o -> o.equalsIgnoreCase(origin));
  }

  boolean allowsMethod(String method) {
    return method != null && allowedMethods.contains(method.toUpperCase(Locale.ROOT));
  }

  boolean allowsHeader(String header) {
    return HeaderPatterns.matches(allowedHeaders, header);
  }
}
