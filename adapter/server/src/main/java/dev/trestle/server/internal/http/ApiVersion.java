package dev.trestle.server.internal.http;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.model.TableLimits;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Checks the {@code x-ms-version} header. A version from the first Table service version up to
 * {@link TableLimits#NEWEST_API_VERSION} is served with the behaviour of {@link
 * TableLimits#API_VERSION}; a later one, or a value that is not a version at all, is the service's
 * 400 {@code InvalidHeaderValue}, as Azure answers a version it does not know. Skipping the check
 * (Azurite's {@code --skipApiVersionCheck}) lets later versions through; malformed values are still
 * refused. An absent header means the default version: Azure requires the header on signed
 * requests, but Azurite does not, and its own REST tests (and scripts written against it) send
 * none.
 */
public final class ApiVersion {
  private static final Pattern SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final LocalDate FIRST = LocalDate.of(2009, 9, 19);
  private static final LocalDate NEWEST = LocalDate.parse(TableLimits.NEWEST_API_VERSION);

  /**
   * The last value that passed, for each setting of {@code allowNewer}: a client sends the same
   * version on every request, and parsing it as a date is a hot path's cost. Strings are immutable,
   * so a racing reader sees an old or a new value, both of which passed.
   */
  private static volatile String lastPassed;

  private static volatile String lastPassedNewer;

  private ApiVersion() {}

  /** Refuses malformed versions and versions after the newest known one. */
  public static void check(String header) {
    check(header, false);
  }

  /**
   * @param allowNewer whether a well-formed version after {@link TableLimits#NEWEST_API_VERSION}
   *     passes
   */
  public static void check(String header, boolean allowNewer) {
    if (header == null || header.isBlank()) {
      return;
    }
    if (header.equals(allowNewer ? lastPassedNewer : lastPassed)) {
      return;
    }
    String value = header.trim();
    LocalDate version = SHAPE.matcher(value).matches() ? parse(value) : null;
    if (version == null || version.isBefore(FIRST) || !allowNewer && version.isAfter(NEWEST)) {
      throw new TableException(
          TableErrorCode.INVALID_HEADER_VALUE,
          "The value for one of the HTTP headers is not in the correct format. (x-ms-version: '"
              + value
              + "')");
    }
    if (allowNewer) {
      lastPassedNewer = header;
    } else {
      lastPassed = header;
    }
  }

  private static LocalDate parse(String value) {
    try {
      return LocalDate.parse(value);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
