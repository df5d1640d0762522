package dev.trestle.filter.internal;

import dev.trestle.PropertyValue;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the quoted part of a typed literal ({@code datetime'...'}, {@code guid'...'}, {@code X'...'} or
 * {@code binary'...'}) into a value; returns null when the text is not valid for its type.
 */
final class LiteralParser {
  private LiteralParser() {}

  // Seconds and fraction optional as in OData v3; up to 9 fractional digits are read and truncated to
  // the service's 100 ns. No zone means UTC, as the service stores only UTC.
  private static final Pattern DATE_TIME = Pattern.compile(
      "(\\d{4})-(\\d{2})-(\\d{2})[Tt](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?([Zz]|[+-]\\d{2}:\\d{2})?");
  private static final Pattern GUID = Pattern.compile(
      "\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}");
  private static final Pattern HEX_PAIRS = Pattern.compile("(\\p{XDigit}{2})*");

  /** True for the prefixes that make an identifier followed by a quote a typed literal. */
  static boolean isTypedPrefix(String word) {
    return switch (word.toLowerCase(Locale.ROOT)) {
      case "datetime", "guid", "binary", "x" -> true;
      default -> false;
    };
  }

  static PropertyValue typed(String prefix, String content) {
    return switch (prefix.toLowerCase(Locale.ROOT)) {
      case "datetime" -> dateTime(content);
      case "guid" -> GUID.matcher(content).matches() ? PropertyValue.of(UUID.fromString(content)) : null;
      case "binary", "x" -> HEX_PAIRS.matcher(content).matches() ? PropertyValue.of(HexFormat.of().parseHex(content)) : null;
      default -> throw new IllegalArgumentException("not a typed-literal prefix: " + prefix);
    };
  }

  private static PropertyValue dateTime(String content) {
    Matcher m = DATE_TIME.matcher(content);
    if (!m.matches()) {
      return null;
    }
    try {
      String fraction = m.group(7) == null ? "" : m.group(7);
      int nanos = fraction.isEmpty() ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
      LocalDateTime local = LocalDateTime.of(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
          m.group(6) == null ? 0 : Integer.parseInt(m.group(6)), nanos);
      if (local.getYear() < 1) {
        return null; // .NET DateTime starts at year 1
      }
      String zone = m.group(8);
      ZoneOffset offset = zone == null || zone.equalsIgnoreCase("Z") ? ZoneOffset.UTC : ZoneOffset.of(zone);
      return PropertyValue.of(local.toInstant(offset));
    } catch (DateTimeException e) {
      return null;
    }
  }
}
