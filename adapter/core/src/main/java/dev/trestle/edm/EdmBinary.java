package dev.trestle.edm;

import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Edm.Binary as text: base64 in JSON, hex pairs in {@code X'...'} and {@code binary'...'} literals.
 */
public final class EdmBinary {
  private static final Pattern HEX_PAIRS = Pattern.compile("(\\p{XDigit}{2})*");

  private EdmBinary() {}

  /**
   * @throws IllegalArgumentException when {@code text} is not base64
   */
  public static byte[] parse(String text) {
    return Base64.getDecoder().decode(text);
  }

  /** The standard (padded) Base64 text of the bytes, as the JSON form of {@code Edm.Binary}. */
  public static String format(byte[] value) {
    return Base64.getEncoder().encodeToString(value);
  }

  /** The bytes of a hex literal's quoted part; null when it is not whole hex pairs. */
  public static byte[] parseLiteral(String content) {
    return HEX_PAIRS.matcher(content).matches() ? HexFormat.of().parseHex(content) : null;
  }
}
