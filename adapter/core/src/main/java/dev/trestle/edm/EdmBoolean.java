package dev.trestle.edm;

/** Edm.Boolean as text, when it arrives as a JSON string rather than {@code true}/{@code false}. */
public final class EdmBoolean {
  private EdmBoolean() {}

  /**
   * Azure reads "TRUE" or "False" too (spreadsheet exports imported with Storage Explorer send
   * those).
   *
   * @throws IllegalArgumentException for anything but true or false in any case
   */
  public static boolean parse(String text) {
    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException("not a boolean");
    }
    return Boolean.parseBoolean(text);
  }
}
