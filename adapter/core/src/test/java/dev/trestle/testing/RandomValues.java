package dev.trestle.testing;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.model.TableLimits;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Random property values of every type, drawn from small domains with the edge values of each type,
 * so that random filters often hit stored values exactly and land on both sides of the edges.
 */
final class RandomValues {
  private RandomValues() {}

  /**
   * Characters that stress ordinal order: case, accents, a quote, the private-use area, a surrogate
   * pair.
   */
  static final List<String> CHARACTERS =
      List.of(
          "a",
          "b",
          "A",
          "B",
          "0",
          "~",
          " ",
          "'",
          "\u00e9",
          "\u00ff",
          "\u0100",
          "\ue000",
          "\ufffd",
          "\ud83d\ude00",
          "\ud800\udc00");

  private static final List<Integer> INT32_EDGES =
      List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1);
  private static final List<Long> INT64_EDGES =
      List.of(
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          0L,
          -1L,
          (long) Integer.MAX_VALUE + 1,
          9_007_199_254_740_993L,
          -9_007_199_254_740_993L);
  private static final List<Double> DOUBLE_EDGES =
      List.of(
          Double.NaN,
          Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY,
          0.0,
          -0.0,
          Double.MIN_VALUE,
          -Double.MIN_VALUE,
          Double.MAX_VALUE,
          -Double.MAX_VALUE,
          1.5,
          0.1,
          1e20,
          9_007_199_254_740_993.0);
  private static final List<Instant> DATE_TIME_BASES =
      List.of(
          TableLimits.MIN_DATE_TIME,
          TableLimits.MAX_DATE_TIME,
          Instant.EPOCH,
          Instant.parse("2020-01-01T00:00:00Z"),
          Instant.parse("2020-01-01T00:00:00.0000001Z"),
          Instant.parse("2021-06-15T12:00:00.5Z"),
          Instant.parse("1999-12-31T23:59:59.9999999Z"));
  private static final List<UUID> GUIDS =
      List.of(
          UUID.fromString("00000000-0000-0000-0000-000000000000"),
          UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"),
          UUID.fromString("7fffffff-ffff-ffff-7fff-ffffffffffff"),
          UUID.fromString("80000000-0000-0000-8000-000000000000"),
          UUID.fromString("11111111-2222-3333-4444-555555555555"),
          UUID.fromString("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"),
          UUID.fromString("11111111-2222-3333-c444-555555555555"));
  private static final List<byte[]> BINARY_EDGES =
      List.of(
          new byte[0],
          new byte[] {0},
          new byte[] {(byte) 0xff},
          new byte[] {0x7f},
          new byte[] {(byte) 0x80},
          new byte[] {0, 0},
          new byte[] {1, 2});

  static EdmType type(Random random) {
    EdmType[] types = EdmType.values();
    return types[random.nextInt(types.length)];
  }

  static PropertyValue value(Random random, EdmType type) {
    boolean edge = random.nextInt(3) == 0;
    return switch (type) {
      case STRING ->
          // "true" reads as the scalar store's marker of a value too large to copy
          PropertyValue.of(
              switch (random.nextInt(12)) {
                case 0, 1 -> longString(random);
                case 2 -> "true";
                default -> string(random, 4);
              });
      case INT32 -> PropertyValue.of(edge ? pick(random, INT32_EDGES) : random.nextInt(11) - 5);
      case INT64 -> PropertyValue.of(edge ? pick(random, INT64_EDGES) : random.nextInt(11) - 5L);
      case DOUBLE ->
          PropertyValue.of(edge ? pick(random, DOUBLE_EDGES) : (random.nextInt(21) - 10) / 4.0);
      case BOOLEAN -> PropertyValue.of(random.nextBoolean());
      case DATE_TIME -> PropertyValue.of(dateTime(random));
      case GUID -> PropertyValue.of(pick(random, GUIDS));
      case BINARY ->
          PropertyValue.of(
              edge
                  ? pick(random, BINARY_EDGES)
                  : random.nextInt(6) == 0 ? longBytes(random) : bytes(random));
    };
  }

  /** Up to maxLength characters from {@link #CHARACTERS}; a surrogate pair counts as one. */
  static String string(Random random, int maxLength) {
    int length = random.nextInt(maxLength + 1);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      s.append(pick(random, CHARACTERS));
    }
    return s.toString();
  }

  /**
   * A string of about 64 characters, on both sides of the scalar store's limit for copied values
   * (longer ones are only marked there), with one of two long common prefixes so that ordered
   * comparisons between long values are decided by their ends.
   */
  static String longString(Random random) {
    String prefix = random.nextBoolean() ? "L".repeat(60) : "M".repeat(61);
    return prefix + string(random, 8);
  }

  /** 30 to 35 bytes (60 to 70 hex characters), around the same limit, with a common prefix. */
  private static byte[] longBytes(Random random) {
    byte[] bytes = new byte[30 + random.nextInt(6)];
    java.util.Arrays.fill(bytes, (byte) 0x55);
    for (int i = 28; i < bytes.length; i++) {
      bytes[i] = (byte) (random.nextInt(4) * 0x55);
    }
    return bytes;
  }

  // A base instant, sometimes moved by a tick or a second, staying inside the Edm.DateTime range.
  private static Instant dateTime(Random random) {
    Instant base = pick(random, DATE_TIME_BASES);
    Instant moved =
        switch (random.nextInt(4)) {
          case 0 -> base.plusNanos(100);
          case 1 -> base.minusNanos(100);
          case 2 -> base.plusSeconds(random.nextInt(3) - 1);
          default -> base;
        };
    boolean inRange =
        !moved.isBefore(TableLimits.MIN_DATE_TIME) && !moved.isAfter(TableLimits.MAX_DATE_TIME);
    return inRange ? moved : base;
  }

  private static byte[] bytes(Random random) {
    byte[] bytes = new byte[random.nextInt(4)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] =
          (byte) (random.nextInt(4) * 0x55); // 0x00, 0x55, 0xaa, 0xff: few values, both signs
    }
    return bytes;
  }

  static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
