package dev.trestle.server.internal.cors;

import java.util.List;
import java.util.Locale;

/**
 * Header lists of CORS rules: exact names, prefixes ending in {@code *}, or {@code *} for all;
 * case-insensitive.
 */
final class HeaderPatterns {
  private HeaderPatterns() {}

  static boolean matches(List<String> patterns, String header) {
    String name = header.toLowerCase(Locale.ROOT);
    for (String pattern : patterns) {
      String p = pattern.toLowerCase(Locale.ROOT);
      if (p.endsWith("*") ? name.startsWith(p.substring(0, p.length() - 1)) : name.equals(p)) {
        return true;
      }
    }
    return false;
  }

  static boolean isPrefix(String pattern) {
    return pattern.endsWith("*");
  }
}
