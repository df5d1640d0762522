package dev.trestle.filter.internal;

import dev.trestle.PropertyValue;

/** One token: its source text, its value when it is a literal, and where it starts (0-based). */
record Token(TokenKind kind, String text, PropertyValue literal, int position) {

  boolean isWord(String word) {
    return kind == TokenKind.IDENTIFIER && text.equals(word);
  }
}
