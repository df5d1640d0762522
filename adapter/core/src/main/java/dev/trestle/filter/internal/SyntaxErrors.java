package dev.trestle.filter.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/** Builds the InvalidInput errors of the filter language, each naming a position in the filter. */
final class SyntaxErrors {
  private SyntaxErrors() {}

  private static final int MAX_QUOTED_FILTER = 256;

  static TableException at(String filter, int position, String detail) {
    String quoted =
        filter.length() <= MAX_QUOTED_FILTER
            ? filter
            : filter.substring(0, MAX_QUOTED_FILTER) + "...";
    return new TableException(
        TableErrorCode.INVALID_INPUT,
        "Syntax error at position " + position + " in '" + quoted + "': " + detail + ".");
  }
}
