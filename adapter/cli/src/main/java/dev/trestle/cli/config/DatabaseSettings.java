package dev.trestle.cli.config;

import dev.trestle.store.JdbcUrls;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Where the tables live: a PostgreSQL or H2 JDBC URL, its credentials, the pool size, the start-up
 * wait, the connection timeout, and whether a schema this command creates gets the scalar store.
 */
public record DatabaseSettings(
    String jdbcUrl,
    String user,
    String password,
    int poolSize,
    Duration startupWait,
    Duration connectionTimeout,
    boolean scalarStore) {

  private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)(password|pwd)=[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("//[^/@?;]*@");

  public DatabaseSettings {
    checkUrl(jdbcUrl);
  }

  /**
   * Reads the database settings; {@link ConfigurationException} names the setting that is wrong.
   */
  public static DatabaseSettings resolve(Configuration configuration, DatabaseFlags flags) {
    String url = configuration.string(Setting.DB, flags.db());
    try {
      checkUrl(url);
    } catch (ConfigurationException e) {
      throw Configuration.invalid(
          Setting.DB,
          configuration.resolve(Setting.DB, flags.db()),
          "a jdbc:postgresql: or jdbc:h2: URL, e.g. jdbc:postgresql://localhost:5432/trestle");
    }
    String durableUrl;
    try {
      durableUrl = JdbcUrls.durable(url);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(e.getMessage());
    }
    return new DatabaseSettings(
        durableUrl,
        configuration.string(Setting.DB_USER, flags.user()),
        configuration.string(Setting.DB_PASSWORD, flags.password()),
        configuration.integer(Setting.POOL_SIZE, flags.poolSize(), 1, 1000),
        Duration.ofSeconds(configuration.integer(Setting.DB_WAIT, flags.startupWait(), 0, 3600)),
        Duration.ofMillis(
            Math.round(
                1000
                    * configuration.decimal(
                        Setting.DB_TIMEOUT, flags.connectionTimeout(), 0.25, 600))),
        configuration.bool(Setting.SCALAR_STORE, flags.scalarStore()));
  }

  /** The flag values as given (null when absent), in the order of the record. */
  public record DatabaseFlags(
      String db,
      String user,
      String password,
      String poolSize,
      String startupWait,
      String connectionTimeout,
      Boolean scalarStore) {}

  /**
   * The same database with another pool size, e.g. one connection for a command that runs one
   * statement at a time.
   */
  public DatabaseSettings withPoolSize(int size) {
    return new DatabaseSettings(
        jdbcUrl, user, password, size, startupWait, connectionTimeout, scalarStore);
  }

  /** An in-memory H2 database: nothing survives the process. */
  public boolean isInMemory() {
    return JdbcUrls.isInMemory(jdbcUrl);
  }

  public boolean isPostgresql() {
    return jdbcUrl.startsWith("jdbc:postgresql:");
  }

  /** The URL for logs and messages, with any password and user-info removed. */
  public String redactedUrl() {
    return redact(jdbcUrl);
  }

  public static String redact(String jdbcUrl) {
    String withoutUserInfo = USER_INFO.matcher(jdbcUrl).replaceFirst("//***@");
    return PASSWORD_PARAMETER.matcher(withoutUserInfo).replaceAll("$1=***");
  }

  @Override
  public String toString() {
    return "DatabaseSettings[" + redactedUrl() + ", user=" + user + ", poolSize=" + poolSize + "]";
  }

  private static void checkUrl(String url) {
    boolean supported =
        url != null
            && (url.startsWith("jdbc:postgresql:") && url.length() > "jdbc:postgresql:".length()
                || url.startsWith("jdbc:h2:") && url.length() > "jdbc:h2:".length());
    if (!supported) {
      throw new ConfigurationException(
          "Unsupported JDBC URL '"
              + (url == null ? "" : redact(url))
              + "': Trestle runs on jdbc:postgresql: or jdbc:h2: URLs.");
    }
  }
}
