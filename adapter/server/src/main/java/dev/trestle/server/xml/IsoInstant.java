package dev.trestle.server.xml;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The ISO 8601 forms the service accepts for the start and expiry of a SAS and of a stored access policy:
 * {@code 2021-09-21}, {@code 2021-09-21T08:49Z}, {@code 2021-09-21T08:49:37Z}, with or without fractional seconds
 * or an offset; a time without a zone is UTC.
 */
public final class IsoInstant {
  private IsoInstant() {}

  /** The instant {@code text} names (not null or empty). */
  public static Instant parse(String text) throws DateTimeParseException {
    if (text.length() == 10) {
      return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    char last = text.charAt(text.length() - 1);
    boolean zoned = last == 'Z' || last == 'z' || text.lastIndexOf('+') > 10 || text.lastIndexOf('-') > 10;
    return zoned
        ? OffsetDateTime.parse(text.toUpperCase(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant()
        : LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
  }
}
