package dev.trestle.filter.internal;

import dev.trestle.PropertyValue;

/**
 * Splits a filter into tokens on demand, so the first error reported is the leftmost one. Literals
 * are fully decoded here; words (property names, operators, keywords) stay identifiers for the
 * parser.
 */
final class FilterLexer {
  private final String input;
  private final boolean extended;
  private int pos;

  FilterLexer(String input) {
    this(input, false);
  }

  /** With {@code extended}, a comma is a token (Trestle's string functions); else an error. */
  FilterLexer(String input, boolean extended) {
    this.extended = extended;
    this.input = input;
  }

  Token next() {
    skipWhitespace();
    if (pos >= input.length()) {
      return new Token(TokenKind.END, "", null, pos);
    }
    int start = pos;
    char c = input.charAt(pos);
    if (c == '(') {
      pos++;
      return new Token(TokenKind.OPEN_PAREN, "(", null, start);
    }
    if (c == ')') {
      pos++;
      return new Token(TokenKind.CLOSE_PAREN, ")", null, start);
    }
    if (c == ',' && extended) {
      pos++;
      return new Token(TokenKind.COMMA, ",", null, start);
    }
    if (c == '\'') {
      String value = quoted();
      return literal(PropertyValue.of(value), start);
    }
    if (isDigit(c) || (c == '-' && startsNumber(pos + 1))) {
      return number(start);
    }
    if (isWordStart(input.codePointAt(pos))) {
      return word(start);
    }
    throw SyntaxErrors.at(input, start, "unexpected character '" + c + "'");
  }

  private void skipWhitespace() {
    while (pos < input.length() && isWhitespace(input.charAt(pos))) {
      pos++;
    }
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  // A quoted run starting at pos, with '' standing for one quote; pos ends after the closing quote.
  private String quoted() {
    int start = pos;
    StringBuilder value = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= input.length()) {
        throw SyntaxErrors.at(input, start, "unterminated quoted literal");
      }
      char c = input.charAt(pos);
      if (c == '\'') {
        if (pos + 1 < input.length() && input.charAt(pos + 1) == '\'') {
          value.append('\'');
          pos += 2;
          continue;
        }
        pos++;
        return value.toString();
      }
      value.append(c);
      pos++;
    }
  }

  private boolean startsNumber(int at) {
    return at < input.length() && (isDigit(input.charAt(at)) || input.startsWith("INF", at));
  }

  // int32 "123", int64 "123L", double "1.5", "1e10", "2.0d", "5D", and "-INF".
  private Token number(int start) {
    int p = start;
    if (input.charAt(p) == '-') {
      p++;
      if (input.startsWith("INF", p)) {
        pos = p + 3;
        return endOfNumber(literal(PropertyValue.of(Double.NEGATIVE_INFINITY), start));
      }
    }
    p = digits(p);
    boolean isDouble = false;
    if (p + 1 < input.length() && input.charAt(p) == '.' && isDigit(input.charAt(p + 1))) {
      p = digits(p + 1);
      isDouble = true;
    }
    if (p < input.length() && (input.charAt(p) == 'e' || input.charAt(p) == 'E')) {
      int q = p + 1;
      if (q < input.length() && (input.charAt(q) == '+' || input.charAt(q) == '-')) {
        q++;
      }
      if (q < input.length() && isDigit(input.charAt(q))) {
        p = digits(q);
        isDouble = true;
      }
    }
    String text = input.substring(start, p);
    char suffix = p < input.length() ? input.charAt(p) : 0;
    PropertyValue value;
    if ((suffix == 'L' || suffix == 'l') && !isDouble) {
      p++;
      value = int64(text, start);
    } else if (suffix == 'D' || suffix == 'd') {
      p++;
      value = dbl(text, start);
    } else {
      value = isDouble ? dbl(text, start) : int32(text, start);
    }
    pos = p;
    return endOfNumber(literal(value, start));
  }

  // "5and" or "12abc" is not a number followed by a word: the service needs a separator.
  private Token endOfNumber(Token token) {
    if (pos < input.length() && isWordPart(input.codePointAt(pos))) {
      throw SyntaxErrors.at(
          input, pos, "unexpected character '" + input.charAt(pos) + "' after a number");
    }
    return token;
  }

  private PropertyValue int32(String text, int start) {
    try {
      return PropertyValue.of(Integer.parseInt(text));
    } catch (NumberFormatException e) {
      throw SyntaxErrors.at(
          input,
          start,
          "unrecognized 'Edm.Int32' literal '" + text + "' (append L for an Edm.Int64 literal)");
    }
  }

  private PropertyValue int64(String text, int start) {
    try {
      return PropertyValue.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      throw SyntaxErrors.at(input, start, "unrecognized 'Edm.Int64' literal '" + text + "'");
    }
  }

  private PropertyValue dbl(String text, int start) {
    double value = Double.parseDouble(text);
    if (Double.isInfinite(value)) {
      throw SyntaxErrors.at(input, start, "unrecognized 'Edm.Double' literal '" + text + "'");
    }
    return PropertyValue.of(value);
  }

  private Token word(int start) {
    int p = start;
    while (p < input.length() && isWordPart(input.codePointAt(p))) {
      p += Character.charCount(input.codePointAt(p));
    }
    String word = input.substring(start, p);
    pos = p;
    if (pos < input.length() && input.charAt(pos) == '\'' && LiteralParser.isTypedPrefix(word)) {
      String content = quoted();
      PropertyValue value = LiteralParser.typed(word, content);
      if (value == null) {
        throw SyntaxErrors.at(input, start, "invalid " + word + " literal '" + content + "'");
      }
      return literal(value, start);
    }
    // true and false are read in any case (True, FALSE), as boolean property values are; keywords
    // are lower case.
    if (word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false")) {
      return literal(PropertyValue.of(word.equalsIgnoreCase("true")), start);
    }
    return switch (word) {
      case "NaN" -> literal(PropertyValue.of(Double.NaN), start);
      case "INF" -> literal(PropertyValue.of(Double.POSITIVE_INFINITY), start);
      default -> new Token(TokenKind.IDENTIFIER, word, null, start);
    };
  }

  private Token literal(PropertyValue value, int start) {
    return new Token(TokenKind.LITERAL, input.substring(start, pos), value, start);
  }

  private int digits(int p) {
    while (p < input.length() && isDigit(input.charAt(p))) {
      p++;
    }
    return p;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isWordStart(int cp) {
    return cp == '_' || Character.isLetter(cp);
  }

  // Letters, digits and the other characters a C# identifier may continue with.
  private static boolean isWordPart(int cp) {
    if (cp == '_' || Character.isLetterOrDigit(cp)) {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.NON_SPACING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.CONNECTOR_PUNCTUATION,
          Character.FORMAT,
          Character.LETTER_NUMBER ->
          true;
      default -> false;
    };
  }
}
