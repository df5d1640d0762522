package dev.trestle.server.auth.internal;

import dev.trestle.edm.EdmDateTime;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Parses {@code st} and {@code se} ({@link EdmDateTime#parseIso8601}); a malformed one fails
 * authentication.
 */
final class SasTime {
  private SasTime() {}

  static Instant parse(String name, String value) {
    if (value == null) {
      return null;
    }
    try {
      return EdmDateTime.parseIso8601(value);
    } catch (DateTimeParseException e) {
      throw AuthFailures.authenticationFailed(
          "Invalid " + name + " '" + value + "': expected an ISO 8601 UTC time.");
    }
  }
}
