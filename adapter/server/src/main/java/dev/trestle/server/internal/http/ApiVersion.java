package dev.trestle.server.internal.http;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Checks the {@code x-ms-version} header. Any well-formed version from the first Table service
 * version on is served with the behaviour of {@link dev.trestle.model.TableLimits#API_VERSION}
 * (newer SDKs keep working); a value that is not a version at all is the service's 400 {@code
 * InvalidHeaderValue}. An absent header means the default version.
 */
public final class ApiVersion {
  private static final Pattern SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final LocalDate FIRST = LocalDate.of(2009, 9, 19);

  private ApiVersion() {}

  public static void check(String header) {
    if (header == null || header.isBlank()) {
      return;
    }
    String value = header.trim();
    if (!SHAPE.matcher(value).matches() || !parsesFromFirst(value)) {
      throw new TableException(
          TableErrorCode.INVALID_HEADER_VALUE,
          "The value for one of the HTTP headers is not in the correct format. (x-ms-version: '"
              + value
              + "')");
    }
  }

  private static boolean parsesFromFirst(String value) {
    try {
      return !LocalDate.parse(value).isBefore(FIRST);
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}
