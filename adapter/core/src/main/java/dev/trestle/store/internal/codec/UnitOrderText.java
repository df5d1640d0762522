package dev.trestle.store.internal.codec;

/**
 * Encodes any Java string into text that PostgreSQL can store and whose code-point order (what
 * {@code COLLATE "C"} compares) equals the UTF-16 code-unit order of the original, the order Azure
 * uses.
 *
 * <p>PostgreSQL text cannot hold U+0000 or unpaired surrogates, and code-point order puts
 * U+E000-U+FFFF before supplementary characters where UTF-16 puts them after. So each UTF-16 unit
 * is mapped on its own, monotonically: units below U+D800 stay (ASCII is unchanged), surrogate
 * units D800-DFFF become E000-E7FF, and E000-FFFF become E800-107FF. U+0000 and U+0001 are escaped
 * as the pairs 01 01 and 01 02, which keeps the order (they sort below every other unit) and never
 * collides with the remapped ranges.
 */
public final class UnitOrderText {
  private static final int SHIFT = 0x800;

  private UnitOrderText() {}

  public static String encode(String text) {
    if (isPlain(text)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char unit = text.charAt(i);
      if (unit == 0) {
        out.append('\u0001').append('\u0001');
      } else if (unit == 1) {
        out.append('\u0001').append('\u0002');
      } else if (unit < 0xD800) {
        out.append(unit);
      } else {
        out.appendCodePoint(unit + SHIFT);
      }
    }
    return out.toString();
  }

  public static String decode(String stored) {
    if (isPlain(stored)) {
      return stored;
    }
    StringBuilder out = new StringBuilder(stored.length());
    for (int i = 0; i < stored.length(); ) {
      int codePoint = stored.codePointAt(i);
      i += Character.charCount(codePoint);
      if (codePoint == 1) {
        out.append(stored.charAt(i) == '\u0001' ? '\u0000' : '\u0001');
        i++;
      } else if (codePoint < 0xD800) {
        out.append((char) codePoint);
      } else {
        out.append((char) (codePoint - SHIFT));
      }
    }
    return out.toString();
  }

  /** Whether these stored characters decode to themselves: text that {@link #isPlain} holds. */
  public static boolean isPlain(char[] stored, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      char unit = stored[i];
      if (unit <= 1 || unit >= 0xD800) {
        return false;
      }
    }
    return true;
  }

  /**
   * The same for stored text as UTF-8: no byte 0 or 1 (U+0000, U+0001), and no character from
   * U+D800 up, whose UTF-8 starts with ED A0 and above, or with a lead byte from EE up.
   */
  public static boolean isPlainUtf8(byte[] stored, int offset, int length) {
    int end = offset + length;
    for (int i = offset; i < end; i++) {
      int b = stored[i] & 0xFF;
      if (b <= 1 || b >= 0xEE) {
        return false;
      }
      if (b == 0xED && (i + 1 >= end || (stored[i + 1] & 0xFF) >= 0xA0)) {
        return false;
      }
    }
    return true;
  }

  /** Text without U+0000, U+0001 or units from U+D800 up is stored as it is. */
  private static boolean isPlain(String text) {
    for (int i = 0; i < text.length(); i++) {
      char unit = text.charAt(i);
      if (unit <= 1 || unit >= 0xD800) {
        return false;
      }
    }
    return true;
  }
}
