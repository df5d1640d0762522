package dev.trestle.server.support;

import dev.trestle.TableService;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;

/**
 * A service with a pool of its own on a test database, as {@code trestle serve} has: its size and
 * wait are the test's, and on PostgreSQL its connections carry an application name, so that a test
 * can find and kill them.
 */
public final class PooledService {
  private PooledService() {}

  public static TableService open(
      TestDatabase database, String applicationName, int poolSize, Duration wait) {
    return openAt(database, url(database, database.jdbcUrl(), applicationName), poolSize, wait);
  }

  /** The same, through another URL of the database (one that goes through a proxy, say). */
  public static TableService openAt(
      TestDatabase database, String jdbcUrl, int poolSize, Duration wait) {
    return TableService.builder()
        .jdbcUrl(jdbcUrl)
        .credentials(database.username(), database.password())
        .maximumPoolSize(poolSize)
        .connectionTimeout(wait)
        .account(TestDatabase.newAccount())
        .migrate(false)
        .build();
  }

  /**
   * The URL with the test database's schema and the application name (on PostgreSQL; H2 URLs stay
   * as they are).
   */
  public static String url(TestDatabase database, String jdbcUrl, String applicationName) {
    if (database.schema() == null) {
      return jdbcUrl;
    }
    return jdbcUrl
        + (jdbcUrl.contains("?") ? "&" : "?")
        + "currentSchema="
        + database.schema()
        + "&ApplicationName="
        + applicationName;
  }
}
