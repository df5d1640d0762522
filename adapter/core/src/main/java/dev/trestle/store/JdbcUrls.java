package dev.trestle.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDBC URL Trestle opens for a URL a user gives: what durability needs is added, and a setting
 * that would lose acknowledged writes is refused with a message naming it.
 *
 * <p>H2 writes committed transactions to its file from a background thread, up to {@code
 * WRITE_DELAY} ms (500 by default) after the commit, so a crash of the process loses writes that
 * were already acknowledged; {@code WRITE_DELAY=0} writes each commit before it returns. H2 also
 * closes the database from a JVM shutdown hook unless {@code DB_CLOSE_ON_EXIT=FALSE}, which would
 * fail the requests a graceful stop is still finishing; Trestle closes the database itself when its
 * pool closes. {@code MAX_COMPACT_TIME=0} (unless the URL sets it) turns off the file compaction H2
 * runs when it closes a database: in H2 2.3.232 that compaction can lose chunks (h2database issue
 * 4247) and, on a file just recovered from a killed process, fails its own assertion
 * (RandomAccessStore.moveChunkInside, issue 4086); a copy resumed on such a file failed in CI. The
 * file then keeps its size when closed; H2 reuses its free space while it runs. {@code CACHE_SIZE}
 * (unless the URL sets it, or names a server) is a quarter of the heap ({@link #cacheSizeKb}).
 * Refused besides: {@code LOG=0} (no transaction log: a killed process loses data; H2 2.x refuses
 * it too), {@code FILE_LOCK=NO} (a second process may open and overwrite the same file), {@code
 * LOCK_MODE=0} (no locks: the row locks Trestle decides writes under are gone), and an {@code INIT}
 * script that changes any of these or runs a script file Trestle cannot read. In-memory H2 ({@code
 * jdbc:h2:mem:} and the in-memory file systems {@code memFS:}, {@code memLZF:}, {@code nioMemFS:},
 * {@code nioMemLZF:}) keeps nothing and is left as it is.
 */
public final class JdbcUrls {
  private static final String H2 = "jdbc:h2:";

  /** H2's in-memory databases and file systems, also behind a TCP or TLS server. */
  private static final Pattern IN_MEMORY =
      Pattern.compile(
          "(?i)jdbc:h2:(?:(?:tcp|ssl)://[^/]*/)?(?:mem:|memFS:|memLZF:|nioMemFS:|nioMemLZF:).*");

  /** {@code SET NAME [=|TO] value} in an {@code INIT} script, for the settings checked here. */
  private static final Pattern INIT_SETTING =
      Pattern.compile(
          "(?i)\\bSET\\s+(WRITE_DELAY|LOG|LOCK_MODE|DB_CLOSE_ON_EXIT)\\s*(?:=|\\bTO\\b)?\\s*([^\\s;]*)");

  /** An H2 server's database, whose cache is the server's to size. */
  private static final Pattern REMOTE = Pattern.compile("(?i)jdbc:h2:(?:tcp|ssl)://");

  /**
   * H2's page cache for an embedded file database, in KB: a quarter of the heap, at least H2's own
   * 16 MB. With 16 MB a table of 100,000 entities of 1 KB no longer fits, and every filtered scan
   * read and decoded each of its pages from the file again (most of its CPU, measured in
   * bench/RESULTS.md); the cache fills only as far as the data read.
   */
  static long cacheSizeKb(long maxHeapBytes) {
    return Math.max(16 * 1024, maxHeapBytes / 4 / 1024);
  }

  private static final Pattern RUNSCRIPT = Pattern.compile("(?i)\\bRUNSCRIPT\\b");

  private JdbcUrls() {}

  /**
   * The URL to open: unchanged for PostgreSQL and in-memory H2; for an H2 database on disk (file or
   * server), with {@code WRITE_DELAY=0}, {@code DB_CLOSE_ON_EXIT=FALSE} and {@code
   * MAX_COMPACT_TIME=0} added when absent.
   *
   * @throws IllegalArgumentException naming the setting, when the URL sets {@code WRITE_DELAY}
   *     above 0, {@code DB_CLOSE_ON_EXIT} to true, {@code LOG=0}, {@code FILE_LOCK=NO}, {@code
   *     LOCK_MODE=0}, or an {@code INIT} that sets one of them or runs {@code RUNSCRIPT}
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
    } else {
      checkWriteDelay(writeDelay, "");
    }
    String closeOnExit = setting(url, "DB_CLOSE_ON_EXIT");
    if (closeOnExit == null) {
      url = url + ";DB_CLOSE_ON_EXIT=FALSE";
    } else {
      checkCloseOnExit(closeOnExit, "");
    }
    if (setting(url, "MAX_COMPACT_TIME") == null) {
      url = url + ";MAX_COMPACT_TIME=0";
    }
    if (setting(url, "CACHE_SIZE") == null && !REMOTE.matcher(url).lookingAt()) {
      url = url + ";CACHE_SIZE=" + cacheSizeKb(Runtime.getRuntime().maxMemory());
    }
    String log = setting(url, "LOG");
    if (log != null) {
      checkLog(log, "");
    }
    String lockMode = setting(url, "LOCK_MODE");
    if (lockMode != null) {
      checkLockMode(lockMode, "");
    }
    String fileLock = setting(url, "FILE_LOCK");
    if (fileLock != null && fileLock.trim().equalsIgnoreCase("NO")) {
      throw refused(
          "FILE_LOCK=" + fileLock.trim(),
          "would let a second process open the same database file and overwrite acknowledged"
              + " writes; remove it (H2 locks the file by default)");
    }
    String init = setting(url, "INIT");
    if (init != null) {
      checkInit(init);
    }
    return url;
  }

  private static void checkInit(String init) {
    String where = " (in INIT)";
    if (RUNSCRIPT.matcher(init).find()) {
      throw refused(
          "INIT=" + init.trim(),
          "runs a script Trestle cannot check for settings that lose acknowledged writes; run the"
              + " script once before starting Trestle instead");
    }
    Matcher set = INIT_SETTING.matcher(init);
    while (set.find()) {
      String value = set.group(2);
      String name = set.group(1).toUpperCase(Locale.ROOT);
      if (name.equals("WRITE_DELAY")) {
        checkWriteDelay(value, where);
      } else if (name.equals("LOG")) {
        checkLog(value, where);
      } else if (name.equals("LOCK_MODE")) {
        checkLockMode(value, where);
      } else {
        checkCloseOnExit(value, where);
      }
    }
  }

  private static void checkWriteDelay(String value, String where) {
    if (!value.trim().equals("0")) {
      throw refused(
          "WRITE_DELAY=" + value.trim() + where,
          "would lose acknowledged writes on a crash; remove it (Trestle uses WRITE_DELAY=0)");
    }
  }

  private static void checkCloseOnExit(String value, String where) {
    if (!value.trim().equalsIgnoreCase("FALSE")) {
      throw refused(
          "DB_CLOSE_ON_EXIT=" + value.trim() + where,
          "would close the database under requests a graceful stop is finishing; remove it"
              + " (Trestle closes it itself)");
    }
  }

  private static void checkLog(String value, String where) {
    if (value.trim().equals("0")) {
      throw refused(
          "LOG=" + value.trim() + where,
          "turns H2's transaction log off, which loses acknowledged writes when the process is"
              + " killed; remove it");
    }
  }

  private static void checkLockMode(String value, String where) {
    if (value.trim().equals("0")) {
      throw refused(
          "LOCK_MODE=" + value.trim() + where,
          "turns off the row locks Trestle decides conditional writes under; remove it");
    }
  }

  private static IllegalArgumentException refused(String setting, String why) {
    return new IllegalArgumentException(
        "The H2 setting " + setting.trim() + " in the JDBC URL " + why + ".");
  }

  /**
   * Whether the URL names an H2 database that lives only in memory and is lost when it closes:
   * {@code jdbc:h2:mem:} and H2's in-memory file systems, also behind an H2 server.
   */
  public static boolean isInMemory(String jdbcUrl) {
    return jdbcUrl != null && IN_MEMORY.matcher(jdbcUrl).matches();
  }

  /**
   * The value of an H2 URL setting ({@code ;NAME=value}, names in any case, a backslash escaping
   * the next character as H2 reads it), or null when it is absent.
   */
  static String setting(String url, String name) {
    List<String> parts = split(url);
    String found = null;
    for (int i = 1; i < parts.size(); i++) {
      String part = parts.get(i);
      int equals = part.indexOf('=');
      if (equals > 0 && part.substring(0, equals).trim().toUpperCase(Locale.ROOT).equals(name)) {
        found = part.substring(equals + 1);
      }
    }
    return found;
  }

  /** The URL split at each {@code ;} not escaped by a backslash, escapes removed. */
  private static List<String> split(String url) {
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '\\' && i + 1 < url.length()) {
        part.append(url.charAt(++i));
      } else if (c == ';') {
        parts.add(part.toString());
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    parts.add(part.toString());
    return parts;
  }
}
