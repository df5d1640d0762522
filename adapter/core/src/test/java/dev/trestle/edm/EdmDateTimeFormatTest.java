package dev.trestle.edm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written date formatting must stay byte-identical to the formatter-based original. */
class EdmDateTimeFormatTest {

  /** The original implementation, kept here as the reference. */
  private static String referenceDateTime(Instant instant) {
    String fraction = String.format("%07d", instant.getNano() / 100).replaceAll("0+$", "");
    String seconds =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC)
            .format(instant);
    return fraction.isEmpty() ? seconds + "Z" : seconds + "." + fraction + "Z";
  }

  private static String referenceTimestamp(Instant instant) {
    return DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC)
            .format(instant)
        + "."
        + String.format("%07d", instant.getNano() / 100)
        + "Z";
  }

  private static List<Instant> samples() {
    List<Instant> instants =
        new ArrayList<>(
            List.of(
                Instant.parse("1601-01-01T00:00:00Z"),
                Instant.parse("1601-01-01T00:00:00.0000001Z"),
                Instant.parse("9999-12-31T23:59:59.9999999Z"),
                Instant.parse("9999-12-31T23:59:59Z"),
                Instant.parse("1970-01-01T00:00:00Z"),
                Instant.parse("2020-02-29T12:34:56.1234567Z"),
                Instant.parse("2020-02-29T12:34:56.1000000Z"),
                Instant.parse("2020-02-29T12:34:56.0000010Z"),
                Instant.parse("0000-01-01T00:00:00Z"),
                Instant.parse("-0001-12-31T23:59:59.5Z"),
                Instant.parse("+10000-01-01T00:00:00.25Z"),
                Instant.ofEpochSecond(0, 99)));
    Random random = new Random(20261123);
    long first = Instant.parse("1601-01-01T00:00:00Z").getEpochSecond();
    long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
    for (int i = 0; i < 200_000; i++) {
      long second = first + Math.floorMod(random.nextLong(), last - first + 1);
      int nano =
          switch (i % 4) {
            case 0 -> 0;
            case 1 -> random.nextInt(10) * 100_000_000;
            case 2 -> random.nextInt(10_000) * 100_000;
            default -> random.nextInt(1_000_000_000);
          };
      instants.add(Instant.ofEpochSecond(second, nano));
    }
    for (int year : new int[] {1601, 9999}) {
      long start = Instant.parse(String.format("%04d-01-01T00:00:00Z", year)).getEpochSecond();
      for (int i = 0; i < 10_000; i++) {
        instants.add(
            Instant.ofEpochSecond(
                start + random.nextInt(365 * 86_400), random.nextInt(1_000_000_000)));
      }
    }
    return instants;
  }

  @Test
  void matchesTheFormatterBasedImplementation() {
    for (Instant instant : samples()) {
      assertThat(EdmDateTime.format(instant))
          .as("DateTime %s", instant)
          .isEqualTo(referenceDateTime(instant));
      assertThat(EdmDateTime.formatSevenDigits(instant))
          .as("Timestamp %s", instant)
          .isEqualTo(referenceTimestamp(instant));
    }
  }

  @Test
  void trimsDateTimeFractionsButNotTimestamps() {
    Instant instant = Instant.parse("2021-03-04T05:06:07.1200000Z");
    assertThat(EdmDateTime.format(instant)).isEqualTo("2021-03-04T05:06:07.12Z");
    assertThat(EdmDateTime.formatSevenDigits(instant)).isEqualTo("2021-03-04T05:06:07.1200000Z");
    assertThat(EdmDateTime.format(Instant.parse("2021-03-04T05:06:07Z")))
        .isEqualTo("2021-03-04T05:06:07Z");
  }
}
