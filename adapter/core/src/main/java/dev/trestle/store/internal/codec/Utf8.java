package dev.trestle.store.internal.codec;

/** Facts about UTF-8 text read without decoding it. */
final class Utf8 {
  private Utf8() {}

  /**
   * The UTF-16 length of well-formed UTF-8: one unit per character, two for a character from
   * U+10000 up (a lead byte from F0 up). Continuation bytes (80 to BF) start no character.
   */
  static int charCount(byte[] utf8) {
    int count = 0;
    for (byte b : utf8) {
      if (b >= -64) { // not a continuation byte (0x80..0xBF are -128..-65)
        count += b < 0 && b >= -16 ? 2 : 1; // a lead byte from 0xF0 (-16) up: a surrogate pair
      }
    }
    return count;
  }
}
