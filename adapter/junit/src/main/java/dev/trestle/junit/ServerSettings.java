package dev.trestle.junit;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What a server is started with; tests with equal settings share one server. A {@code DataSource}
 * compares by identity, so tests share a server on it when they hand over the same object.
 *
 * @param jdbcUrl the database, or null for the {@code dataSource}, or both null for H2 in memory
 * @param accounts account names and their base64 keys, in order; the first is the default account
 */
record ServerSettings(
    String jdbcUrl,
    String username,
    String password,
    DataSource dataSource,
    int port,
    Map<String, String> accounts) {

  ServerSettings {
    accounts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(accounts));
  }

  /** Whether the extension makes (and drops) the database: a private H2 in memory. */
  boolean inMemory() {
    return jdbcUrl == null && dataSource == null;
  }

  /** The database as a log line may name it: no credentials, no URL parameters. */
  String describeDatabase() {
    if (inMemory()) {
      return "H2 in memory";
    }
    if (jdbcUrl == null) {
      return "the given DataSource";
    }
    int end = jdbcUrl.length();
    for (char separator : new char[] {'?', ';'}) {
      int at = jdbcUrl.indexOf(separator);
      if (at >= 0) {
        end = Math.min(end, at);
      }
    }
    return jdbcUrl.substring(0, end);
  }
}
