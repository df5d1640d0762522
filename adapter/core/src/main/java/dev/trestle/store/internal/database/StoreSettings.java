package dev.trestle.store.internal.database;

import dev.trestle.RelaxedTransactions;
import dev.trestle.TableServiceBuilder;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * What a store opens with, as {@code TableServiceBuilder} validated it: a caller's DataSource or a
 * JDBC URL (with its credentials and pool settings) for a pool the store owns, the account served,
 * whether to migrate, whether Trestle's extensions answer, the bounds of relaxed transactions
 * (null: off), and whether a migration creating the schema adds the scalar store.
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
    RelaxedTransactions relaxedTransactions,
    boolean scalarStore) {

  /**
   * A store on the caller's DataSource for {@code account}: no pool of its own (so no URL,
   * credentials or pool settings), no migration, the extensions on, no relaxed transactions.
   */
  public static StoreSettings onDataSource(DataSource dataSource, String account) {
    return new StoreSettings(
        dataSource,
        null,
        null,
        null,
        1,
        TableServiceBuilder.DEFAULT_CONNECTION_TIMEOUT,
        account,
        false,
        true,
        null,
        false);
  }

  /** These settings with the extensions on or off. */
  public StoreSettings withExtensions(boolean on) {
    return new StoreSettings(
        dataSource,
        jdbcUrl,
        username,
        password,
        maximumPoolSize,
        connectionTimeout,
        account,
        migrate,
        on,
        relaxedTransactions,
        scalarStore);
  }
}
