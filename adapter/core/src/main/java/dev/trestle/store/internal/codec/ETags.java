package dev.trestle.store.internal.codec;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The service's weak ETags, {@code W/"datetime'2021-09-21T01%3A04%3A07.0980562Z'"}, derived from an
 * entity's ticks. Parsing gives the ticks back, so a conditional write compares one BIGINT.
 */
public final class ETags {
  private static final String PREFIX = "W/\"datetime'";
  private static final String SUFFIX = "'\"";

  private ETags() {}

  static String of(long ticks) {
    return ofFormatted(Ticks.format(ticks));
  }

  /** The ETag of the version whose {@link Ticks#format} is {@code sevenDigits}. */
  static String ofFormatted(String sevenDigits) {
    // built in one go: every read entity has one, and replace() then concatenation copied it twice;
    // each of the two colons becomes three characters
    StringBuilder etag =
        new StringBuilder(PREFIX.length() + sevenDigits.length() + 4 + SUFFIX.length());
    etag.append(PREFIX);
    for (int i = 0, n = sevenDigits.length(); i < n; i++) {
      char ch = sevenDigits.charAt(i);
      if (ch == ':') {
        etag.append("%3A");
      } else {
        etag.append(ch);
      }
    }
    return etag.append(SUFFIX).toString();
  }

  /** True for a null or {@code *} If-Match: any existing version matches. */
  public static boolean matchesAny(String ifMatch) {
    return ifMatch == null || ifMatch.trim().equals("*");
  }

  /**
   * Whether an If-Match value names the version with these ticks. {@code null} and {@code *} match
   * any version; a weak ETag that is not one of ours ({@code W/"wrong"}) is well formed and matches
   * none, as in Azure.
   */
  public static boolean matches(String ifMatch, long ticks) {
    if (matchesAny(ifMatch)) {
      return true;
    }
    Long named = ticksOf(ifMatch);
    return named != null && named == ticks;
  }

  /**
   * The ticks a valid If-Match names, or null when it names none of our versions: {@code *} (see
   * {@link #matchesAny}) or another weak ETag, which matches nothing.
   */
  public static Long ticksNamed(String ifMatch) {
    return matchesAny(ifMatch) ? null : ticksOf(ifMatch);
  }

  /** Throws {@code InvalidInput} unless the value is {@code *} or a weak ETag. */
  public static void validate(String ifMatch) {
    if (!matchesAny(ifMatch)) {
      ticksOf(ifMatch);
    }
  }

  /**
   * The ticks one of our ETags stands for; null for another weak ETag; {@code InvalidInput} for
   * anything else.
   */
  private static Long ticksOf(String etag) {
    String value = etag.trim();
    if (value.startsWith(PREFIX)
        && value.endsWith(SUFFIX)
        && value.length() > PREFIX.length() + SUFFIX.length()) {
      String timestamp =
          value
              .substring(PREFIX.length(), value.length() - SUFFIX.length())
              .replace("%3A", ":")
              .replace("%3a", ":");
      try {
        return Ticks.of(Instant.parse(timestamp));
      } catch (DateTimeParseException | ArithmeticException e) {
        // another weak ETag, checked below
      }
    }
    if (isWeak(value)) {
      return null;
    }
    throw new TableException(
        TableErrorCode.INVALID_INPUT,
        "The etag value '"
            + etag
            + "' specified in one of the request headers is not valid. Please make sure only one"
            + " etag value is specified and is valid.");
  }

  // W/"opaque" (the W in either case, as clients send both); strong and bare ETags are not the
  // service's form.
  private static boolean isWeak(String value) {
    return value.length() >= 4
        && (value.charAt(0) == 'W' || value.charAt(0) == 'w')
        && value.charAt(1) == '/'
        && value.charAt(2) == '"'
        && value.endsWith("\"")
        && value.indexOf('"', 3) == value.length() - 1;
  }
}
