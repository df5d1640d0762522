package dev.trestle.edm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hand-read canonical form must answer exactly as the formatter does for every text, and
 * neither may move a date that does not exist to one that does.
 */
class EdmDateTimeParseTest {

  /** The original implementation, kept here as the reference. */
  private static final DateTimeFormatter REFERENCE =
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

  private static String reference(String text) {
    try {
      var parsed = REFERENCE.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
      Instant instant =
          parsed instanceof OffsetDateTime odt
              ? odt.toInstant()
              : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
      if (instant.isBefore(Instant.parse("1601-01-01T00:00:00Z"))
          || instant.isAfter(Instant.parse("9999-12-31T23:59:59.9999999Z"))) {
        return "out of range";
      }
      return instant.minusNanos(instant.getNano() % 100).toString();
    } catch (RuntimeException e) {
      return "unreadable";
    }
  }

  private static String actual(String text) {
    try {
      return EdmDateTime.parse(text).toString();
    } catch (TableException e) {
      return "out of range";
    } catch (RuntimeException e) {
      return "unreadable";
    }
  }

  @Test
  void everyTextIsReadAsTheFormatterReadsIt() {
    List<String> texts =
        new ArrayList<>(
            List.of(
                "2024-02-29T10:11:12Z",
                "2023-02-29T10:11:12Z",
                "2023-02-30T10:11:12.5Z",
                "2024-04-31T00:00:00Z",
                "2024-01-01T24:00:00Z",
                "2024-01-01T23:60:00Z",
                "2024-01-01T23:59:60Z",
                "2024-01-01T00:00:00.Z",
                "2024-01-01T00:00:00.1234567890Z",
                "2024-01-01T00:00:00.123456789Z",
                "2024-01-01T00:00:00.0000001Z",
                "2024-01-01T00:00:00.00000009Z",
                "2024-01-01T00:00:00z",
                "2024-01-01T00:00Z",
                "2024-01-01T00:00:00",
                "2024-01-01T00:00:00+01:00",
                "1600-12-31T23:59:59.9999999Z",
                "1601-01-01T00:00:00Z",
                "9999-12-31T23:59:59.9999999Z",
                "0000-01-01T00:00:00Z",
                "2024-13-01T00:00:00Z",
                "2024-00-01T00:00:00Z",
                "2024-01-00T00:00:00Z",
                "2024-01-0aT00:00:00Z",
                "+2024-01-01T00:00:00Z",
                "2024-01-01 00:00:00Z",
                "2024-1-01T00:00:00.000Z"));
    Random random = new Random(7);
    String symbols = "0123456789-T:.Z+a";
    for (int i = 0; i < 20_000; i++) {
      char[] text =
          String.format(
                  "%04d-%02d-%02dT%02d:%02d:%02d.%07dZ",
                  1590 + random.nextInt(20),
                  random.nextInt(14),
                  random.nextInt(33),
                  random.nextInt(26),
                  random.nextInt(62),
                  random.nextInt(62),
                  random.nextInt(10_000_000))
              .toCharArray();
      if (random.nextBoolean()) {
        text[random.nextInt(text.length)] = symbols.charAt(random.nextInt(symbols.length()));
      }
      int cut = random.nextInt(4) == 0 ? 20 + random.nextInt(9) : text.length;
      String s = new String(text, 0, Math.min(cut, text.length));
      texts.add(cut < text.length ? s.substring(0, s.length() - 1) + "Z" : s);
    }
    for (String text : texts) {
      assertThat(actual(text)).as(text).isEqualTo(reference(text));
    }
  }

  @Test
  void aDateThatDoesNotExistIsUnreadableNotMoved() {
    for (String text :
        List.of(
            "2020-02-30T00:00:00Z",
            "2021-02-29T00:00:00Z",
            "2021-04-31T10:00:00.5Z",
            "2021-04-31T10:00:00",
            "2021-04-31T10:00Z",
            "2020-01-01T24:00:00Z",
            "2020-01-01T24:00:00+01:00",
            "2020-01-01T24:00")) {
      assertThat(actual(text)).as(text).isEqualTo("unreadable");
    }
    assertThat(actual("2020-02-29T23:59:59.9999999Z")).isEqualTo("2020-02-29T23:59:59.999999900Z");
    assertThat(actual("2020-12-31T23:59:59-01:00")).isEqualTo("2021-01-01T00:59:59Z");
  }
}
