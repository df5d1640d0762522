package dev.trestle.edm;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.model.TableLimits;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Edm.DateTime as text: the JSON value (read leniently, written with trailing zeros trimmed), the
 * seven-digit form of Timestamp, ETags and access policies, the {@code datetime'...'} filter
 * literal, and the ISO 8601 forms of SAS and access-policy times.
 */
public final class EdmDateTime {
  /**
   * ISO-8601 with an optional fraction of up to 9 digits and an optional zone (none means UTC).
   * Strict: a day past the end of its month or the hour 24 is an error, as in .NET's DateTime, not
   * a neighbouring date.
   */
  private static final DateTimeFormatter ISO_LENIENT =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral('T')
          .appendPattern("HH:mm")
          .optionalStart()
          .appendLiteral(':')
          .appendPattern("ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .optionalEnd()
          .optionalStart()
          .appendOffsetId()
          .optionalEnd()
          .toFormatter()
          .withResolverStyle(ResolverStyle.STRICT);

  // Seconds and fraction optional as in OData v3; no zone means UTC, as the service stores only
  // UTC.
  private static final Pattern LITERAL =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})[Tt](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?([Zz]|[+-]\\d{2}:\\d{2})?");
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final long FIRST_FOUR_DIGIT_SECOND =
      Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
  private static final long LAST_FOUR_DIGIT_SECOND =
      Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

  private EdmDateTime() {}

  /**
   * A JSON DateTime value: ISO 8601, seconds and fraction optional, no zone means UTC; truncated to
   * 100 ns.
   *
   * @throws DateTimeParseException when the text is not such a date-time
   * @throws TableException {@code OutOfRangeInput} outside 1601-01-01 to 9999-12-31
   */
  public static Instant parse(String text) {
    Instant instant = parseCanonical(text);
    if (instant == null) {
      var parsed = ISO_LENIENT.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
      instant =
          parsed instanceof OffsetDateTime odt
              ? odt.toInstant()
              : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
    }
    if (instant.isBefore(TableLimits.MIN_DATE_TIME) || instant.isAfter(TableLimits.MAX_DATE_TIME)) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT, "The date-time value '" + text + "' is out of range.");
    }
    return instant.minusNanos(instant.getNano() % 100);
  }

  /**
   * The form nearly every value has, {@code uuuu-MM-ddTHH:mm:ss[.f{1,9}]Z} with fields in range,
   * read by hand (a bulk import reads two per entity; the formatter cost a fifth of its CPU); null
   * for anything else, which the formatter then decides, so the answers are the formatter's.
   */
  private static Instant parseCanonical(String text) {
    int length = text.length();
    if (length < 20
        || length == 21
        || length > 30
        || text.charAt(length - 1) != 'Z'
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || (length > 20 && text.charAt(19) != '.')) {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    int fraction = length > 20 ? digits(text, 20, length - 21) : 0;
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || day > 28 && day > java.time.YearMonth.of(year, month).lengthOfMonth()
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59
        || fraction < 0) {
      return null;
    }
    int nanos = fraction;
    for (int i = length - 21; i < 9 && length > 20; i++) {
      nanos *= 10;
    }
    long days = LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
  }

  /** The ASCII digits at {@code at} as a number, or -1 when one is not a digit. */
  private static int digits(String text, int at, int count) {
    int value = 0;
    for (int i = at; i < at + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** The quoted part of a {@code datetime'...'} filter literal; null when it is not a date-time. */
  public static Instant parseLiteral(String content) {
    Matcher m = LITERAL.matcher(content);
    if (!m.matches()) {
      return null;
    }
    try {
      String fraction = m.group(7) == null ? "" : m.group(7);
      int nanos =
          fraction.isEmpty() ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
      LocalDateTime local =
          LocalDateTime.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)),
              Integer.parseInt(m.group(4)),
              Integer.parseInt(m.group(5)),
              m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
              nanos);
      if (local.getYear() < 1) {
        return null; // .NET DateTime starts at year 1
      }
      String zone = m.group(8);
      ZoneOffset offset =
          zone == null || zone.equalsIgnoreCase("Z") ? ZoneOffset.UTC : ZoneOffset.of(zone);
      return local.toInstant(offset);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /**
   * The ISO 8601 forms the service accepts for the start and expiry of a SAS and of a stored access
   * policy: {@code 2021-09-21}, {@code 2021-09-21T08:49Z}, {@code 2021-09-21T08:49:37Z}, with or
   * without fractional seconds or an offset; a time without a zone is UTC. {@code text} is neither
   * null nor empty.
   */
  public static Instant parseIso8601(String text) throws DateTimeParseException {
    if (text.length() == 10) {
      return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    char last = text.charAt(text.length() - 1);
    boolean zoned =
        last == 'Z' || last == 'z' || text.lastIndexOf('+') > 10 || text.lastIndexOf('-') > 10;
    return zoned
        ? OffsetDateTime.parse(text.toUpperCase(), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
            .toInstant()
        : LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            .toInstant(ZoneOffset.UTC);
  }

  /**
   * A DateTime value as Azure writes it: UTC, trailing zeros of the fraction trimmed, no dot for
   * whole seconds.
   */
  public static String format(Instant instant) {
    int ticks = instant.getNano() / 100;
    int digits = 7;
    while (digits > 0 && ticks % 10 == 0) {
      ticks /= 10;
      digits--;
    }
    return format(instant, ticks, digits);
  }

  /** Always seven fractional digits, as Azure writes Timestamp, ETags and access-policy times. */
  public static String formatSevenDigits(Instant instant) {
    return format(instant, instant.getNano() / 100, 7);
  }

  /**
   * {@code uuuu-MM-dd'T'HH:mm:ss[.fraction]Z}, written by hand because it runs twice per entity
   * served; years outside 0000-9999 (never stored, but possible in error texts) use the formatter.
   */
  private static String format(Instant instant, int fraction, int fractionDigits) {
    long epochSecond = instant.getEpochSecond();
    if (epochSecond < FIRST_FOUR_DIGIT_SECOND || epochSecond > LAST_FOUR_DIGIT_SECOND) {
      return SECONDS.format(instant)
          + (fractionDigits == 0 ? "" : "." + padded(fraction, fractionDigits))
          + "Z";
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
}
