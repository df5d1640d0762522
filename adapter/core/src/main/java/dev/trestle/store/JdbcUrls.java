package dev.trestle.store;

import java.util.Locale;

/**
 * The JDBC URL Trestle opens for a URL a user gives: what durability needs is added, and a setting
 * that would lose acknowledged writes is refused with a message naming it.
 *
 * <p>H2 writes committed transactions to its file from a background thread, up to {@code
 * WRITE_DELAY} ms (500 by default) after the commit, so a crash of the process loses writes that
 * were already acknowledged; {@code WRITE_DELAY=0} writes each commit before it returns. H2 also
 * closes the database from a JVM shutdown hook unless {@code DB_CLOSE_ON_EXIT=FALSE}, which would
 * fail the requests a graceful stop is still finishing; Trestle closes the database itself when its
 * pool closes. In-memory H2 ({@code jdbc:h2:mem:}) keeps nothing and is left as it is.
 */
public final class JdbcUrls {
  private static final String H2 = "jdbc:h2:";

  private JdbcUrls() {}

  /**
   * The URL to open: unchanged for PostgreSQL and in-memory H2; for an H2 database on disk (file or
   * server), with {@code WRITE_DELAY=0} and {@code DB_CLOSE_ON_EXIT=FALSE} added when absent.
   *
   * @throws IllegalArgumentException when the URL sets {@code WRITE_DELAY} above 0 or {@code
   *     DB_CLOSE_ON_EXIT} to true
   */
  public static String durable(String jdbcUrl) {
    if (jdbcUrl == null
        || !jdbcUrl.regionMatches(true, 0, H2, 0, H2.length())
        || isInMemory(jdbcUrl)) {
      return jdbcUrl;
    }
    String url = jdbcUrl;
    String writeDelay = setting(url, "WRITE_DELAY");
    if (writeDelay == null) {
      url = url + ";WRITE_DELAY=0";
    } else if (!writeDelay.trim().equals("0")) {
      throw new IllegalArgumentException(
          "The H2 setting WRITE_DELAY="
              + writeDelay
              + " in the JDBC URL would lose"
              + " acknowledged writes on a crash; remove it (Trestle uses WRITE_DELAY=0).");
    }
    String closeOnExit = setting(url, "DB_CLOSE_ON_EXIT");
    if (closeOnExit == null) {
      url = url + ";DB_CLOSE_ON_EXIT=FALSE";
    } else if (!closeOnExit.trim().equalsIgnoreCase("FALSE")) {
      throw new IllegalArgumentException(
          "The H2 setting DB_CLOSE_ON_EXIT="
              + closeOnExit
              + " in the JDBC URL would"
              + " close the database under requests a graceful stop is finishing; remove it (Trestle closes it itself).");
    }
    return url;
  }

  /** Whether the URL names an H2 database that lives only in memory and is lost when it closes. */
  public static boolean isInMemory(String jdbcUrl) {
    return jdbcUrl != null && jdbcUrl.regionMatches(true, 0, H2 + "mem:", 0, H2.length() + 4);
  }

  /**
   * The value of an H2 URL setting ({@code ;NAME=value}, names in any case), or null when it is
   * absent.
   */
  static String setting(String url, String name) {
    String[] parts = url.split(";");
    String found = null;
    for (int i = 1; i < parts.length; i++) {
      int equals = parts[i].indexOf('=');
      if (equals > 0
          && parts[i].substring(0, equals).trim().toUpperCase(Locale.ROOT).equals(name)) {
        found = parts[i].substring(equals + 1);
      }
    }
    return found;
  }
}
