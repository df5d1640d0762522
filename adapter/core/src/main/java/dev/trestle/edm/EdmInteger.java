package dev.trestle.edm;

import java.util.regex.Pattern;

/**
 * Edm.Int32 and Edm.Int64 as text: plain decimal digits with an optional minus; Int64 travels as a
 * JSON string.
 */
public final class EdmInteger {
  private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+");

  private EdmInteger() {}

  /**
   * @throws NumberFormatException when {@code text} is not a decimal Int32 (a sign '+' or spaces
   *     included)
   */
  public static int parseInt32(String text) {
    return Integer.parseInt(decimal(text));
  }

  /**
   * @throws NumberFormatException when {@code text} is not a decimal Int64
   */
  public static long parseInt64(String text) {
    return Long.parseLong(decimal(text));
  }

  /** Int64 in JSON: a string, because JavaScript numbers lose integers beyond 2^53. */
  public static String formatInt64(long value) {
    return Long.toString(value);
  }

  private static String decimal(String text) {
    if (!DECIMAL.matcher(text).matches()) {
      throw new NumberFormatException("not a decimal integer");
    }
    return text;
  }
}
