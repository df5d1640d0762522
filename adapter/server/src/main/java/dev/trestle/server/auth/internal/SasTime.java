package dev.trestle.server.auth.internal;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Parses {@code st} and {@code se}: the ISO 8601 forms the service accepts, {@code 2021-09-21},
 * {@code 2021-09-21T08:49Z}, {@code 2021-09-21T08:49:37Z}, with or without fractional seconds; a time without a
 * zone is UTC.
 */
final class SasTime {
  private SasTime() {}

  static Instant parse(String name, String value) {
    if (value == null) {
      return null;
    }
    try {
      if (value.length() == 10) {
        return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      char last = value.charAt(value.length() - 1);
      boolean zoned = last == 'Z' || last == 'z' || value.lastIndexOf('+') > 10 || value.lastIndexOf('-') > 10;
      return zoned
          ? OffsetDateTime.parse(value.toUpperCase(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant()
          : LocalDateTime.parse(value, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw AuthFailures.authenticationFailed("Invalid " + name + " '" + value + "': expected an ISO 8601 UTC time.");
    }
  }
}
