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
import java.time.temporal.ChronoField;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Edm.DateTime as text: the JSON value (read leniently, written with trailing zeros trimmed), the
 * seven-digit form of Timestamp, ETags and access policies, the {@code datetime'...'} filter
 * literal, and the ISO 8601 forms of SAS and access-policy times.
 */
public final class EdmDateTime {
  /** ISO-8601 with an optional fraction of up to 9 digits and an optional zone (none means UTC). */
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
          .toFormatter();

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
    var parsed = ISO_LENIENT.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
    Instant instant =
        parsed instanceof OffsetDateTime odt
            ? odt.toInstant()
            : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
    if (instant.isBefore(TableLimits.MIN_DATE_TIME) || instant.isAfter(TableLimits.MAX_DATE_TIME)) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT, "The date-time value '" + text + "' is out of range.");
    }
    return instant.minusNanos(instant.getNano() % 100);
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
