package dev.trestle.server.internal.endpoints;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.server.internal.routing.HttpCall;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** Checks of conditional headers and query options shared by single and batch operations. */
final class Preconditions {
  private static final Pattern WEAK_ETAG = Pattern.compile("[Ww]/\"[^\"]*\"");

  private Preconditions() {}

  /**
   * The If-Match value, or null when absent; {@code *} or a weak ETag, anything else is
   * InvalidInput.
   */
  static String ifMatch(HttpCall call) {
    if (call.header("If-None-Match") != null) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "If-None-Match HTTP header is not supported for this operation.");
    }
    String value = call.header("If-Match");
    if (value == null) {
      return null;
    }
    String trimmed = value.trim();
    if (!trimmed.equals("*") && !WEAK_ETAG.matcher(trimmed).matches()) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "The etag value '"
              + value
              + "' specified in one of the request headers is not valid. "
              + "Please make sure only one etag value is specified and is valid.");
    }
    return trimmed;
  }

  /**
   * {@code $top}: null when absent, else a number; its range is checked where the query is built.
   */
  static Integer top(HttpCall call) {
    String value = call.query("$top");
    if (value == null) {
      return null;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "Bad Request - Error in query syntax.");
    }
  }

  /**
   * Builds a query from the request's options. The query records check {@code $top} and refuse it
   * with {@code OutOfRangeQueryParameterValue}, the library's code; on the wire Azure answers
   * {@code InvalidInput}.
   */
  static <T> T query(Supplier<T> build) {
    try {
      return build.get();
    } catch (TableException e) {
      if (e.errorCode() != TableErrorCode.OUT_OF_RANGE_QUERY_PARAMETER_VALUE) {
        throw e;
      }
      throw new TableException(TableErrorCode.INVALID_INPUT, e.getMessage());
    }
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
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "Bad Request - Error in query syntax.");
    }
    return names.stream().distinct().toList();
  }
}
