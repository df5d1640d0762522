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
        yield parseNumber(text);
      }
    };
  }

  /**
   * A double written as a number; @throws NumberFormatException when it is too large for a double
   * (Azure refuses it, as .NET Framework's parser does, rather than storing an infinity: only the
   * strings above stand for those). A number too small rounds to zero, as there.
   */
  public static double parseNumber(String text) {
    double value = Double.parseDouble(text);
    if (Double.isInfinite(value)) {
      throw new NumberFormatException("out of the range of a double");
    }
    return value;
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
