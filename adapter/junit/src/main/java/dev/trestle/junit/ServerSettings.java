package dev.trestle.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What a server is started with; tests with equal settings share one server. A {@code DataSource}
 * compares by identity, so tests share a server on it when they hand over the same object.
 *
 * @param jdbcUrl the database, or null for the {@code dataSource}, or both null for H2 in memory
 * @param defaultAccount the account of the connection string, endpoint and clients injected
 * @param accounts account names and their base64 keys, the default account first
 */
record ServerSettings(
    String jdbcUrl,
    String username,
    String password,
    DataSource dataSource,
    int port,
    String defaultAccount,
    Map<String, String> accounts) {

  ServerSettings {
    accounts = Collections.unmodifiableMap(new LinkedHashMap<>(accounts));
    if (!accounts.containsKey(defaultAccount)) {
      throw new IllegalArgumentException("The default account must be served: " + defaultAccount);
    }
  }

  /** The accounts' keys are a map, in order, with the default account first. */
  static ServerSettings of(
      String jdbcUrl,
      String username,
      String password,
      DataSource dataSource,
      int port,
      Map<String, String> accounts) {
    return new ServerSettings(
        jdbcUrl,
        username,
        password,
        dataSource,
        port,
        accounts.keySet().iterator().next(),
        accounts);
  }

  /** Without the password or keys: settings may end up in a failure message. */
  @Override
  public String toString() {
    return "ServerSettings[database="
        + describeDatabase()
        + ", port="
        + port
        + ", accounts="
        + accounts.keySet()
        + "]";
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
