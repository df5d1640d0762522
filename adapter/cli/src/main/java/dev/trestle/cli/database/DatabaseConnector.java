package dev.trestle.cli.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.store.TransactionPooler;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the connection pool once the database answers. A plain JDBC probe runs first, with back-off
 * while the database is unreachable, so that start-up failures end as one clear message instead of
 * a pool's stack trace; failures that waiting cannot fix (credentials, a missing database, a locked
 * file) end at once.
 */
public final class DatabaseConnector {
  private static final Logger log = LoggerFactory.getLogger(DatabaseConnector.class);
  private static final Duration FIRST_DELAY = Duration.ofMillis(250);
  private static final Duration MAX_DELAY = Duration.ofSeconds(5);

  private DatabaseConnector() {}

  /** A pool for the database, its meters in {@code registry} when not null. */
  public static HikariDataSource open(DatabaseSettings settings, MeterRegistry registry) {
    // The probe's connection stays open until the pool has its own: an embedded H2 database closes
    // with its last connection, so closed in between it was opened twice, the first time only to
    // be closed again (after a killed process, a recovery and a close of the file for nothing).
    Connection probe = waitUntilReachable(settings);
    try {
      return openPool(settings, registry);
    } finally {
      try {
        probe.close();
      } catch (SQLException e) {
        log.debug("Closing the probe connection to {} failed", settings.redactedUrl(), e);
      }
    }
  }

  private static HikariDataSource openPool(DatabaseSettings settings, MeterRegistry registry) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("trestle");
    config.setJdbcUrl(
        TransactionPooler.adapt(settings.jdbcUrl(), settings.user(), settings.password()));
    if (settings.user() != null) {
      config.setUsername(settings.user());
    }
    if (settings.password() != null) {
      config.setPassword(settings.password());
    }
    config.setMaximumPoolSize(settings.poolSize());
    config.setMinimumIdle(Math.min(2, settings.poolSize()));
    // a request waiting this long for a connection is answered ServerBusy instead of piling up
    config.setConnectionTimeout(settings.connectionTimeout().toMillis());
    // an idle connection is checked before it is handed out: within the wait, not HikariCP's
    // default 5 s, so that
    // a silent database cannot hold a request past the wait
    config.setValidationTimeout(Math.max(250, settings.connectionTimeout().toMillis() / 2));
    if (registry != null) {
      config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    }
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new CliException(
          ExitCode.DATABASE,
          "Cannot open a connection pool to "
              + settings.redactedUrl()
              + ": "
              + ConnectionFailure.rootMessage(e),
          e);
    }
  }

  /**
   * Probes the database until it answers or the start-up wait runs out; the connection that
   * answered, for the caller to close.
   */
  static Connection waitUntilReachable(DatabaseSettings settings) {
    long deadline = System.nanoTime() + settings.startupWait().toNanos();
    Duration delay = FIRST_DELAY;
    for (int attempt = 1; ; attempt++) {
      SQLException failure;
      try {
        Connection connection = connect(settings);
        if (attempt > 1) {
          log.info("Database {} is reachable", settings.redactedUrl());
        }
        return connection;
      } catch (SQLException e) {
        failure = e;
      }
      ConnectionFailure kind = ConnectionFailure.classify(failure);
      if (!kind.transientFailure()) {
        throw new CliException(kind.exitCode(), kind.describe(settings, failure), failure);
      }
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new CliException(
            ExitCode.DATABASE,
            kind.describe(settings, failure)
                + " Gave up after "
                + settings.startupWait().toSeconds()
                + " s (--db-wait).",
            failure);
      }
      Duration sleep = Duration.ofNanos(Math.min(delay.toNanos(), remaining));
      log.info(
          "Database {} not reachable yet ({}); retrying in {} ms",
          settings.redactedUrl(),
          ConnectionFailure.rootMessage(failure),
          sleep.toMillis());
      try {
        Thread.sleep(sleep);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(ExitCode.DATABASE, "Interrupted while waiting for the database.");
      }
      delay = delay.multipliedBy(2).compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay.multipliedBy(2);
    }
  }

  private static Connection connect(DatabaseSettings settings) throws SQLException {
    Properties properties = new Properties();
    if (settings.user() != null) {
      properties.setProperty("user", settings.user());
    }
    if (settings.password() != null) {
      properties.setProperty("password", settings.password());
    }
    if (settings.isPostgresql()) {
      // fail a dead host quickly; the loop above does the waiting
      properties.putIfAbsent("connectTimeout", "5");
    }
    return DriverManager.getConnection(settings.jdbcUrl(), properties);
  }
}
