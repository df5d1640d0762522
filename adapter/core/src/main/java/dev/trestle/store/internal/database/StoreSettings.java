package dev.trestle.store.internal.database;

import dev.trestle.RelaxedTransactions;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * What a store opens with, as {@code TableServiceBuilder} validated it: a caller's DataSource or a
 * JDBC URL (with its credentials and pool settings) for a pool the store owns, the account served,
 * whether to migrate, whether Trestle's extensions answer, and the bounds of relaxed transactions
 * (null: off).
 */
public record StoreSettings(
    DataSource dataSource,
    String jdbcUrl,
    String username,
    String password,
    int maximumPoolSize,
    Duration connectionTimeout,
    String account,
    boolean migrate,
    boolean extensions,
    RelaxedTransactions relaxedTransactions) {

  /** Settings without relaxed transactions. */
  public StoreSettings(
      DataSource dataSource,
      String jdbcUrl,
      String username,
      String password,
      int maximumPoolSize,
      Duration connectionTimeout,
      String account,
      boolean migrate,
      boolean extensions) {
    this(
        dataSource,
        jdbcUrl,
        username,
        password,
        maximumPoolSize,
        connectionTimeout,
        account,
        migrate,
        extensions,
        null);
  }

  /** Settings with the extensions on. */
  public StoreSettings(
      DataSource dataSource,
      String jdbcUrl,
      String username,
      String password,
      int maximumPoolSize,
      Duration connectionTimeout,
      String account,
      boolean migrate) {
    this(
        dataSource,
        jdbcUrl,
        username,
        password,
        maximumPoolSize,
        connectionTimeout,
        account,
        migrate,
        true);
  }
}
