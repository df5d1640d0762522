package dev.trestle.filter.internal;

import dev.trestle.PropertyValue;
import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.edm.EdmGuid;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * Turns the quoted part of a typed literal ({@code datetime'...'}, {@code guid'...'}, {@code
 * X'...'} or {@code binary'...'}) into a value; returns null when the text is not valid for its
 * type.
 */
final class LiteralParser {
  private LiteralParser() {}

  /** True for the prefixes that make an identifier followed by a quote a typed literal. */
  static boolean isTypedPrefix(String word) {
    return switch (word.toLowerCase(Locale.ROOT)) {
      case "datetime", "guid", "binary", "x" -> true;
      default -> false;
    };
  }

  static PropertyValue typed(String prefix, String content) {
    return switch (prefix.toLowerCase(Locale.ROOT)) {
      case "datetime" -> {
        Instant instant = EdmDateTime.parseLiteral(content);
        yield instant == null ? null : PropertyValue.of(instant);
      }
      case "guid" -> {
        UUID guid = EdmGuid.parseLiteral(content);
        yield guid == null ? null : PropertyValue.of(guid);
      }
      case "binary", "x" -> {
        byte[] bytes = EdmBinary.parseLiteral(content);
        yield bytes == null ? null : PropertyValue.of(bytes);
      }
      default -> throw new IllegalArgumentException("not a typed-literal prefix: " + prefix);
    };
  }
}
