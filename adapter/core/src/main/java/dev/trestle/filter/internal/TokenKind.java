package dev.trestle.filter.internal;

/** What a filter token is; keywords and operators are identifiers the parser reads in context. */
enum TokenKind {
  IDENTIFIER,
  LITERAL,
  OPEN_PAREN,
  CLOSE_PAREN,
  /** Only in the extended syntax, between a function's arguments. */
  COMMA,
  END
}
