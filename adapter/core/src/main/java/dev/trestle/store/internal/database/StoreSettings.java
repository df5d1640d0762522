package dev.trestle.store.internal.database;

import java.time.Duration;
import javax.sql.DataSource;

/**
 * What a store opens with, as {@code TableServiceBuilder} validated it: a caller's DataSource or a
 * JDBC URL (with its credentials and pool settings) for a pool the store owns, the account served,
 * and whether to migrate.
 */
public record StoreSettings(
    DataSource dataSource,
    String jdbcUrl,
    String username,
    String password,
    int maximumPoolSize,
    Duration connectionTimeout,
    String account,
    boolean migrate) {}
