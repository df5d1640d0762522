package dev.trestle.server.xml;

import java.time.Instant;
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
      return IsoInstant.parse(text);
    } catch (DateTimeParseException e) {
      throw SafeXml.invalidNodeValue(node);
    }
  }

  /** Azure keeps 100-nanosecond ticks; finer digits cannot survive a round trip. */
  static String format(Instant instant) {
    return AZURE.format(Instant.ofEpochSecond(instant.getEpochSecond(), instant.getNano() / 100 * 100));
  }
}
