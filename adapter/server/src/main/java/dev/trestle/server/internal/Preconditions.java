package dev.trestle.server.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.util.List;
import java.util.regex.Pattern;

/** Checks of conditional headers and query options shared by single and batch operations. */
final class Preconditions {
  private static final Pattern WEAK_ETAG = Pattern.compile("[Ww]/\"[^\"]*\"");
  private static final int MAX_TOP = 1000;

  private Preconditions() {}

  /** The If-Match value, or null when absent; {@code *} or a weak ETag, anything else is InvalidInput. */
  static String ifMatch(HttpCall call) {
    if (call.header("If-None-Match") != null) {
      throw new TableException(TableErrorCode.INVALID_INPUT,
          "If-None-Match HTTP header is not supported for this operation.");
    }
    String value = call.header("If-Match");
    if (value == null) {
      return null;
    }
    String trimmed = value.trim();
    if (!trimmed.equals("*") && !WEAK_ETAG.matcher(trimmed).matches()) {
      throw new TableException(TableErrorCode.INVALID_INPUT,
          "The etag value '" + value + "' specified in one of the request headers is not valid. "
              + "Please make sure only one etag value is specified and is valid.");
    }
    return trimmed;
  }

  /** {@code $top}: null when absent, else 1..1000. */
  static Integer top(HttpCall call) {
    String value = call.query("$top");
    if (value == null) {
      return null;
    }
    int top;
    try {
      top = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new TableException(TableErrorCode.INVALID_INPUT, "Bad Request - Error in query syntax.");
    }
    if (top < 1 || top > MAX_TOP) {
      throw new TableException(TableErrorCode.INVALID_INPUT,
          "The requested $top value " + top + " is out of range: it must be between 1 and " + MAX_TOP + ".");
    }
    return top;
  }

  /** {@code $filter}: null when absent or blank (an empty filter matches everything). */
  static String filter(HttpCall call) {
    String value = call.query("$filter");
    return value == null || value.isBlank() ? null : value;
  }

  /** {@code $select}: null for all properties ({@code *}, empty or absent). */
  static List<String> select(HttpCall call) {
    String value = call.query("$select");
    if (value == null || value.isBlank() || value.trim().equals("*")) {
      return null;
    }
    List<String> names = java.util.Arrays.stream(value.split(",", -1)).map(String::trim).toList();
    if (names.contains("")) {
      throw new TableException(TableErrorCode.INVALID_INPUT, "Bad Request - Error in query syntax.");
    }
    return names.stream().distinct().toList();
  }
}
