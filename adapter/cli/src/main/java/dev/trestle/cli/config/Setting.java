package dev.trestle.cli.config;

import java.util.Locale;

/**
 * A setting the CLI reads from a flag, an environment variable or the config file, in that order.
 * The flag is {@code --key}, the variable {@code TRESTLE_KEY} (dashes become underscores) and the
 * config-file property {@code key}. Descriptions live in the commands' {@code --help}; a test keeps
 * them in step.
 */
public enum Setting {
  DB("db", "jdbc:h2:file:./trestle-data/trestle"),
  DB_USER("db-user", null),
  DB_PASSWORD("db-password", null),
  POOL_SIZE("pool-size", "10"),
  DB_WAIT("db-wait", "30"),
  DB_TIMEOUT("db-timeout", "2"),
  SCALAR_STORE("scalar-store", "false"),
  HOST("host", "127.0.0.1"),
  PORT("port", "10002"),
  OPS_HOST("ops-host", null),
  OPS_PORT("ops-port", null),
  ACCOUNT("account", null, "AZURITE_ACCOUNTS"),
  ALLOW_ANONYMOUS("allow-anonymous", "false"),
  HEADER_TIMEOUT("header-timeout", "10"),
  MIN_BODY_RATE("min-body-rate", "500"),
  MAX_CONNECTIONS("max-connections", "2000"),
  SETTINGS_REFRESH("settings-refresh", "5"),
  LOG_LEVEL("log-level", "info"),
  LOG_FORMAT("log-format", "text"),
  OAUTH("oauth", "off"),
  OAUTH_JWKS("oauth-jwks", null),
  OAUTH_ISSUER("oauth-issuer", null),
  OAUTH_GRANTS("oauth-grants", null),
  OAUTH_ALLOW_HTTP("oauth-allow-http", "false"),
  CERT("cert", null),
  KEY("key", null),
  PWD("pwd", null),
  DISABLE_PRODUCT_STYLE_URL("disable-product-style-url", "false"),
  INDEX("index", null),
  DATA_DIR("data-dir", null),
  IN_MEMORY("in-memory", "false"),
  ACCESS_LOG("access-log", "true"),
  LOG_FILE("log-file", null),
  LOOSE("loose", "false"),
  SKIP_API_VERSION_CHECK("skip-api-version-check", "false", "AZURITE_SKIP_API_VERSION_CHECK"),
  EXTENSIONS("extensions", "on"),
  RELAXED_TRANSACTIONS("relaxed-transactions", "off"),
  TTL_SWEEP_INTERVAL("ttl-sweep-interval", "60"),
  TTL_SWEEP_BATCH("ttl-sweep-batch", "1000"),
  FEED_SWEEP_INTERVAL("feed-sweep-interval", "60"),
  FEED_SWEEP_BATCH("feed-sweep-batch", "10000");

  private final String key;
  private final String defaultValue;
  private final String azuriteVariable;

  Setting(String key, String defaultValue) {
    this(key, defaultValue, null);
  }

  Setting(String key, String defaultValue, String azuriteVariable) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.azuriteVariable = azuriteVariable;
  }

  /**
   * Azurite's environment variable for the same setting, read after {@link #environmentVariable()}
   * (e.g. {@code AZURITE_ACCOUNTS}); null when Azurite has none.
   */
  public String azuriteVariable() {
    return azuriteVariable;
  }

  /** The config-file property name, also the flag without its dashes. */
  public String key() {
    return key;
  }

  public String flag() {
    return "--" + key;
  }

  public String environmentVariable() {
    return "TRESTLE_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  /** The value used when no source sets one; null when the setting is optional. */
  public String defaultValue() {
    return defaultValue;
  }

  /** Finds a setting by its config-file property name. */
  public static Setting byKey(String key) {
    for (Setting setting : values()) {
      if (setting.key.equals(key)) {
        return setting;
      }
    }
    return null;
  }
}
