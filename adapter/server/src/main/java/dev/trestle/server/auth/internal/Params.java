package dev.trestle.server.auth.internal;

import java.util.List;

/**
 * Reads single-valued query parameters of a request; an empty value counts as absent. A parameter
 * given twice is refused, as Azure does: taking either value would let a signed parameter and
 * another one disagree.
 */
final class Params {
  private Params() {}

  static String single(SignedRequest request, String name) {
    List<String> values = request.queryParameters(name);
    if (values == null || values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw AuthFailures.authenticationFailed(
          "The query parameter " + name + " is given more than once.");
    }
    String value = values.get(0);
    return value == null || value.isEmpty() ? null : value;
  }

  static String required(SignedRequest request, String name) {
    String value = single(request, name);
    if (value == null) {
      throw AuthFailures.authenticationFailed(name + " is mandatory. Cannot be empty");
    }
    return value;
  }

  static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
