package dev.trestle.edm;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Edm.Guid as text: exactly 8-4-4-4-12 hex digits, in JSON and in {@code guid'...'} literals alike.
 */
public final class EdmGuid {
  private static final Pattern FORM =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private EdmGuid() {}

  /**
   * The GUID {@code text} names; unlike {@link UUID#fromString}, short groups ({@code 1-2-3-4-5})
   * are refused.
   */
  public static UUID parse(String text) {
    if (!FORM.matcher(text).matches()) {
      throw new IllegalArgumentException("not a GUID");
    }
    return UUID.fromString(text);
  }

  /** The GUID of a {@code guid'...'} literal; null when it is not one. */
  public static UUID parseLiteral(String content) {
    return FORM.matcher(content).matches() ? UUID.fromString(content) : null;
  }

  /** The lower-case hyphenated form, as the JSON and literal forms of {@code Edm.Guid}. */
  public static String format(UUID value) {
    return value.toString();
  }
}
