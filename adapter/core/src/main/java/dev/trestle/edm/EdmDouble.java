package dev.trestle.edm;

import java.util.regex.Pattern;

/**
 * Edm.Double as text: a JSON number, or the strings NaN, Infinity and -Infinity (INF and -INF read
 * too).
 */
public final class EdmDouble {
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  private EdmDouble() {}

  /**
   * A double written as a JSON string; @throws NumberFormatException when it is none of the forms
   * above
   */
  public static double parse(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity", "INF" -> Double.POSITIVE_INFINITY;
      case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
      default -> {
        if (!NUMBER.matcher(text).matches()) {
          throw new NumberFormatException("not a number");
        }
        yield Double.parseDouble(text);
      }
    };
  }

  /**
   * A finite double as a JSON number that always shows it is not an integer ({@code 5.0}, not
   * {@code 5}).
   */
  public static String format(double value) {
    return Double.toString(value);
  }

  /** The string NaN and the infinities travel as; null for a finite value. */
  public static String special(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    return null;
  }
}
