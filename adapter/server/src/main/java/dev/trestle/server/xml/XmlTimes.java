package dev.trestle.server.xml;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Times in access policies: read in any ISO 8601 form, written as Azure does, with seven fractional digits. */
final class XmlTimes {
  private static final DateTimeFormatter AZURE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);

  private XmlTimes() {}

  static Instant parse(String node, String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      if (text.length() == 10) {
        return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      char last = text.charAt(text.length() - 1);
      boolean zoned = last == 'Z' || last == 'z' || text.lastIndexOf('+') > 10 || text.lastIndexOf('-') > 10;
      return zoned
          ? OffsetDateTime.parse(text.toUpperCase(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant()
          : LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw SafeXml.invalidNodeValue(node);
    }
  }

  /** Azure keeps 100-nanosecond ticks; finer digits cannot survive a round trip. */
  static String format(Instant instant) {
    return AZURE.format(Instant.ofEpochSecond(instant.getEpochSecond(), instant.getNano() / 100 * 100));
  }
}
