package dev.trestle.server.internal;

import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Pattern;

/** Conversions between EDM values and their JSON wire forms. */
final class JsonValues {
  private static final Pattern GUID =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
  private static final Instant MIN_DATE = Instant.parse("1601-01-01T00:00:00Z");
  private static final Instant MAX_DATE = Instant.parse("9999-12-31T23:59:59.9999999Z");
  /** ISO-8601 with an optional fraction of up to 9 digits and an optional zone (none means UTC). */
  private static final DateTimeFormatter ISO_LENIENT = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .appendLiteral('T')
      .appendPattern("HH:mm")
      .optionalStart().appendLiteral(':').appendPattern("ss")
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
      .optionalEnd()
      .optionalStart().appendOffsetId().optionalEnd()
      .toFormatter();

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final long FIRST_FOUR_DIGIT_SECOND = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
  private static final long LAST_FOUR_DIGIT_SECOND = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

  private JsonValues() {}

  /** Parses a JSON scalar as the given type; RuntimeExceptions mean the value does not fit the type. */
  static PropertyValue parse(EdmType type, JsonToken token, String text) {
    return switch (type) {
      case STRING -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(text);
      }
      case BOOLEAN -> {
        if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
          yield PropertyValue.of(token == JsonToken.VALUE_TRUE);
        }
        requireToken(token, JsonToken.VALUE_STRING);
        // Azure reads "TRUE" or "False" too (spreadsheet exports imported with Storage Explorer send those).
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
          throw new IllegalArgumentException(text);
        }
        yield PropertyValue.of(Boolean.parseBoolean(text));
      }
      case INT32 -> PropertyValue.of(Integer.parseInt(integerText(token, text)));
      case INT64 -> PropertyValue.of(Long.parseLong(integerText(token, text)));
      case DOUBLE -> PropertyValue.of(parseDouble(token, text));
      case DATE_TIME -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(parseDateTime(text));
      }
      case GUID -> {
        requireToken(token, JsonToken.VALUE_STRING);
        if (!GUID.matcher(text).matches()) {
          throw new IllegalArgumentException(text);
        }
        yield PropertyValue.of(UUID.fromString(text));
      }
      case BINARY -> {
        requireToken(token, JsonToken.VALUE_STRING);
        yield PropertyValue.of(Base64.getDecoder().decode(text));
      }
    };
  }

  private static void requireToken(JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new IllegalArgumentException("expected " + expected);
    }
  }

  private static String integerText(JsonToken token, String text) {
    if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_STRING) {
      throw new IllegalArgumentException(text);
    }
    if (!INTEGER.matcher(text).matches()) {
      throw new IllegalArgumentException(text);
    }
    return text;
  }

  private static double parseDouble(JsonToken token, String text) {
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      return Double.parseDouble(text);
    }
    requireToken(token, JsonToken.VALUE_STRING);
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity", "INF" -> Double.POSITIVE_INFINITY;
      case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
      default -> {
        if (!text.matches("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
          throw new IllegalArgumentException(text);
        }
        yield Double.parseDouble(text);
      }
    };
  }

  /** Parses an ISO-8601 date-time; no zone means UTC. Outside 1601..9999 is {@code OutOfRangeInput}. */
  static Instant parseDateTime(String text) {
    var parsed = ISO_LENIENT.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
    Instant instant = parsed instanceof OffsetDateTime odt ? odt.toInstant()
        : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
    if (instant.isBefore(MIN_DATE) || instant.isAfter(MAX_DATE)) {
      throw new TableException(TableErrorCode.OUT_OF_RANGE_INPUT,
          "The date-time value '" + text + "' is out of range.");
    }
    return instant.minusNanos(instant.getNano() % 100);
  }

  /** A user DateTime as Azure writes it: UTC, trailing zeros of the fraction trimmed, no dot for whole seconds. */
  static String formatDateTime(Instant instant) {
    int ticks = instant.getNano() / 100;
    int digits = 7;
    while (digits > 0 && ticks % 10 == 0) {
      ticks /= 10;
      digits--;
    }
    return format(instant, ticks, digits);
  }

  /** The Timestamp system property: always seven fractional digits, as in the ETag. */
  static String formatTimestamp(Instant instant) {
    return format(instant, instant.getNano() / 100, 7);
  }

  /**
   * {@code uuuu-MM-dd'T'HH:mm:ss[.fraction]Z}, written by hand because it runs twice per entity
   * served; years outside 0000-9999 (never stored, but possible in error texts) use the formatter.
   */
  private static String format(Instant instant, int fraction, int fractionDigits) {
    long epochSecond = instant.getEpochSecond();
    if (epochSecond < FIRST_FOUR_DIGIT_SECOND || epochSecond > LAST_FOUR_DIGIT_SECOND) {
      return SECONDS.format(instant) + (fractionDigits == 0 ? "" : "." + padded(fraction, fractionDigits)) + "Z";
    }
    LocalDateTime time = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
    char[] out = new char[fractionDigits == 0 ? 20 : 21 + fractionDigits];
    put(out, 0, time.getYear(), 4);
    out[4] = '-';
    put(out, 5, time.getMonthValue(), 2);
    out[7] = '-';
    put(out, 8, time.getDayOfMonth(), 2);
    out[10] = 'T';
    put(out, 11, time.getHour(), 2);
    out[13] = ':';
    put(out, 14, time.getMinute(), 2);
    out[16] = ':';
    put(out, 17, time.getSecond(), 2);
    if (fractionDigits > 0) {
      out[19] = '.';
      put(out, 20, fraction, fractionDigits);
    }
    out[out.length - 1] = 'Z';
    return new String(out);
  }

  /** Writes {@code value} as exactly {@code width} decimal digits, zero-padded on the left. */
  private static void put(char[] out, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      out[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  private static String padded(int value, int width) {
    char[] out = new char[width];
    put(out, 0, value, width);
    return new String(out);
  }

  /** A double as a JSON number that always shows it is not an integer ({@code 5.0}, not {@code 5}). */
  static String formatDouble(double value) {
    return Double.toString(value);
  }

  /** NaN and the infinities travel as annotated strings. */
  static String specialDouble(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    return null;
  }
}
