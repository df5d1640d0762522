package dev.trestle.store.internal.codec;

import java.nio.charset.StandardCharsets;

/**
 * Property names as Strings, one instance per name as long as it stays cached: the rows of a page
 * repeat the same few names, and a new String for each of them in each row was garbage. Shared by
 * every reader of a codec without locks: a slot holds a whole String or another one, and a miss
 * only makes a new String.
 */
final class PropertyNames {
  private static final int SLOTS = 1024;

  private final String[] slots = new String[SLOTS];

  String of(char[] text, int offset, int length) {
    int hash = 0;
    for (int i = offset; i < offset + length; i++) {
      hash = 31 * hash + text[i];
    }
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    String cached = slots[slot];
    if (cached != null && equal(cached, text, offset, length)) {
      return cached;
    }
    String name = new String(text, offset, length);
    slots[slot] = name;
    return name;
  }

  private static boolean equal(String name, char[] text, int offset, int length) {
    if (name.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (name.charAt(i) != text[offset + i]) {
        return false;
      }
    }
    return true;
  }

  /** The same for a name's UTF-8 bytes; names outside ASCII are not cached. */
  String of(byte[] text, int offset, int length) {
    int hash = 0;
    for (int i = offset; i < offset + length; i++) {
      byte b = text[i];
      if (b < 0) {
        return new String(text, offset, length, StandardCharsets.UTF_8);
      }
      hash = 31 * hash + b;
    }
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    String cached = slots[slot];
    if (cached != null && equal(cached, text, offset, length)) {
      return cached;
    }
    String name = new String(text, offset, length, StandardCharsets.ISO_8859_1);
    slots[slot] = name;
    return name;
  }

  private static boolean equal(String name, byte[] text, int offset, int length) {
    if (name.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (name.charAt(i) != text[offset + i]) {
        return false;
      }
    }
    return true;
  }
}
