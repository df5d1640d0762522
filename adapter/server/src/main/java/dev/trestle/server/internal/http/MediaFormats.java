package dev.trestle.server.internal.http;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.util.Locale;

/**
 * The formats an OData request may ask for or send. Trestle speaks JSON only, as Azure does from
 * version 2015-12-11: a request for Atom, or an Atom body, is 415 {@code AtomFormatNotSupported};
 * and JSON needs version 2013-08-15 or later, so an earlier version asking for JSON or sending it
 * is 415 {@code JsonFormatNotSupported}. Anything else (no Accept, {@code *}{@code /*}) is answered
 * in JSON.
 */
public final class MediaFormats {
  /** The first version that speaks JSON. */
  private static final String FIRST_JSON_VERSION = "2013-08-15";

  private MediaFormats() {}

  /**
   * @param version the {@code x-ms-version} header, already checked; null for the default
   * @param accept {@code $format} when given, else the {@code Accept} header; null for none
   * @param contentType the body's type; null when there is no body
   */
  public static void check(String version, String accept, String contentType) {
    String wanted = lower(accept);
    String sent = lower(contentType);
    if (wanted != null && isAtom(wanted) && !wanted.contains("json")
        || sent != null && isAtom(sent)) {
      throw new TableException(
          TableErrorCode.ATOM_FORMAT_NOT_SUPPORTED, "Atom format is not supported.");
    }
    boolean json =
        wanted != null && wanted.contains("json") || sent != null && sent.contains("json");
    // versions are yyyy-mm-dd, so they compare as text
    if (json && version != null && version.trim().compareTo(FIRST_JSON_VERSION) < 0) {
      throw new TableException(
          TableErrorCode.JSON_FORMAT_NOT_SUPPORTED, "JSON format is not supported.");
    }
  }

  private static boolean isAtom(String type) {
    return type.contains("atom") || type.contains("/xml") || type.equals("xml");
  }

  private static String lower(String value) {
    return value == null || value.isBlank() ? null : value.toLowerCase(Locale.ROOT);
  }
}
