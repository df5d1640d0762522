package dev.trestle.server.auth.internal;

import java.util.List;

/**
 * The parts of an HTTP request that credentials are checked against; the server adapts its request
 * to it.
 */
public interface SignedRequest {
  /** HTTP method as sent, e.g. {@code GET}, {@code MERGE}. */
  String method();

  /**
   * The request path exactly as sent, still percent-encoded, e.g. {@code /devstoreaccount1/Tables}.
   */
  String rawPath();

  /** Decoded query parameters by name (all values); empty list when absent. */
  List<String> queryParameters(String name);

  /** A header's value, case-insensitive name; null when absent. */
  String header(String name);

  /**
   * Every value of a header, one per header line as sent (case-insensitive name); empty when
   * absent.
   */
  default List<String> headerValues(String name) {
    String value = header(name);
    return value == null ? List.of() : List.of(value);
  }

  /** The client's IP address. */
  String remoteAddress();

  /** True for HTTPS. */
  boolean secure();
}
