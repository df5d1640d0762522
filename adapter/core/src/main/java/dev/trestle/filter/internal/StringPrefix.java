package dev.trestle.filter.internal;

/** The bounds of the strings that start with a prefix, in UTF-16 code-unit order. */
final class StringPrefix {
  private StringPrefix() {}

  /**
   * The least string greater than every string starting with {@code prefix}: the prefix without its
   * trailing U+FFFF units, its last unit incremented; null when there is none (the prefix is empty
   * or all U+FFFF), so that the strings with the prefix are exactly those from it upwards.
   */
  static String successor(String prefix) {
    int end = prefix.length();
    while (end > 0 && prefix.charAt(end - 1) == '\uFFFF') {
      end--;
    }
    if (end == 0) {
      return null;
    }
    return prefix.substring(0, end - 1) + (char) (prefix.charAt(end - 1) + 1);
  }
}
