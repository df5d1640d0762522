package dev.trestle.server.internal.xml;

import dev.trestle.edm.EdmDateTime;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Times in access policies: read in any ISO 8601 form, written as Azure does, with seven fractional
 * digits.
 */
final class XmlTimes {
  private XmlTimes() {}

  static Instant parse(String node, String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return EdmDateTime.parseIso8601(text);
    } catch (DateTimeParseException e) {
      throw SafeXml.invalidNodeValue(node);
    }
  }

  /** Azure keeps 100-nanosecond ticks; finer digits cannot survive a round trip. */
  static String format(Instant instant) {
    return EdmDateTime.formatSevenDigits(instant);
  }
}
