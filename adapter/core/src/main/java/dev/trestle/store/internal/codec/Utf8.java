package dev.trestle.store.internal.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Facts about UTF-8 text read without decoding it. */
final class Utf8 {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {}

  /**
   * The UTF-16 length of well-formed UTF-8: one unit per character, two for a character from
   * U+10000 up (a lead byte from F0 up). Continuation bytes (80 to BF) start no character. Every
   * page row is counted, so runs of eight ASCII bytes are taken at once.
   */
  static int charCount(byte[] utf8) {
    int count = 0;
    int i = 0;
    for (; i + 8 <= utf8.length; i += 8) {
      if (((long) LONGS.get(utf8, i) & HIGH_BITS) == 0) {
        count += 8;
      } else {
        for (int k = i; k < i + 8; k++) {
          count += units(utf8[k]);
        }
      }
    }
    for (; i < utf8.length; i++) {
      count += units(utf8[i]);
    }
    return count;
  }

  /** The UTF-16 units a byte starts: 0 for a continuation byte, 2 for a lead byte from F0 up. */
  private static int units(byte b) {
    if (b >= 0) {
      return 1;
    }
    if (b < -64) { // 0x80..0xBF
      return 0;
    }
    return b >= -16 ? 2 : 1;
  }
}
