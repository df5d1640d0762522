package dev.trestle.store.internal.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.store.SchemaMigrator;
import dev.trestle.store.internal.codec.PropertyCodec;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultConnectionProvider;

/**
 * What every account's service shares: the jOOQ context over one DataSource, the database's dialect, the
 * property codec and what is known of the optional property index. Owns the pool when it created it from a
 * JDBC URL.
 */
public final class Store implements AutoCloseable {
  public final DSLContext sql;
  public final Dialect dialect;
  public final SqlErrors errors;
  public final PropertyCodec properties;
  public final QueryLimits queryLimits;
  public final PageReader pages;
  public final PropertyIndex propertyIndex;
  private final DataSource dataSource;
  private final HikariDataSource ownedPool;

  private Store(DataSource dataSource, HikariDataSource ownedPool, QueryLimits queryLimits) {
    this.dataSource = dataSource;
    this.queryLimits = queryLimits;
    this.ownedPool = ownedPool;
    DatabaseType type = DatabaseTypes.of(dataSource);
    this.dialect = type.dialect();
    this.errors = new SqlErrors(type.sqlStates());
    this.pages = type.pageReader();
    this.properties = new PropertyCodec(dialect::encodeText, dialect::decodeText);
    Settings settings = new Settings()
        // Unquoted names: the migrations create unquoted lower-case names, which H2 folds to upper case.
        .withRenderQuotedNames(RenderQuotedNames.NEVER)
        .withExecuteLogging(false)
        .withRenderSchema(false);
    this.sql = DSL.using(new DefaultConfiguration()
        .set(new TranslatingConnectionProvider(dataSource, errors))
        .set(dialect.sqlDialect())
        .set(settings)
        // One place where a statement's failure that is the database's fault becomes ServerBusy.
        .set(ExecuteListener.onException(context -> context.exception(errors.translate(context.exception())))));
    this.propertyIndex = type.propertyIndex(sql, dialect, properties);
  }

  public static Store open(StoreSettings settings, QueryLimits queryLimits) {
    if (settings.dataSource() != null) {
      return ready(new Store(settings.dataSource(), null, queryLimits), settings);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(dev.trestle.store.TransactionPooler.adapt(settings.jdbcUrl(), settings.username(),
        settings.password()));
    config.setUsername(settings.username());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.maximumPoolSize());
    config.setConnectionTimeout(settings.connectionTimeout().toMillis());
    config.setPoolName("trestle");
    HikariDataSource pool = new HikariDataSource(config);
    try {
      return ready(new Store(pool, pool, queryLimits), settings);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private static Store ready(Store store, StoreSettings settings) {
    dev.trestle.store.TransactionPooler.check(store.dataSource());
    store.dialect.prepareDatabase(store.sql);
    if (settings.migrate()) {
      SchemaMigrator.migrate(store.dataSource());
    }
    store.propertyIndex.present(); // looked up at start, so that the log says from the start whether it is used
    return store;
  }

  /**
   * Runs reads in one read-only snapshot (REPEATABLE READ), so that several statements of one page see the
   * same committed state and never half of an entity-group transaction.
   */
  public <T> T inSnapshot(java.util.function.Function<DSLContext, T> reads) {
    java.util.Optional<String> snapshot = dialect.snapshotStatement();
    if (snapshot.isPresent()) {
      return inTransaction(context -> {
        context.execute(snapshot.get());
        return reads.apply(context);
      });
    }
    return sql.connectionResult(connection -> {
      int isolation = connection.getTransactionIsolation();
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
      try {
        return runAndEnd(connection, reads);
      } finally {
        if (!connection.isClosed()) {
          connection.setTransactionIsolation(isolation);
        }
      }
    });
  }

  /**
   * Runs statements in one transaction at the connection's own isolation, for what must outlive one statement
   * (a cursor), and ends it: committed, or rolled back on failure. Unlike jOOQ's transactionResult it does not
   * read the isolation level first (a round trip on pgjdbc).
   */
  public <T> T inTransaction(java.util.function.Function<DSLContext, T> work) {
    return sql.connectionResult(connection -> {
      connection.setAutoCommit(false);
      return runAndEnd(connection, work);
    });
  }

  /**
   * Runs the work in the connection's open transaction and commits it, or rolls it back on failure; then returns
   * the connection to auto-commit. A connection whose rollback failed is aborted instead: its transaction's state
   * is unknown, and restoring auto-commit would commit whatever part of it the database still holds (pgjdbc
   * commits an open transaction on setAutoCommit(true)), so it must never be used again.
   */
  private <T> T runAndEnd(java.sql.Connection connection, java.util.function.Function<DSLContext, T> work)
      throws java.sql.SQLException {
    T result;
    try {
      result = work.apply(DSL.using(sql.configuration().derive(new DefaultConnectionProvider(connection))));
      connection.commit();
    } catch (RuntimeException | Error | java.sql.SQLException e) {
      try {
        connection.rollback();
      } catch (java.sql.SQLException | RuntimeException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
        abandon(connection, e);
        throw failure(e);
      }
      connection.setAutoCommit(true);
      throw failure(e);
    }
    connection.setAutoCommit(true);
    return result;
  }

  /** What a failed transaction throws: a failed commit whose cause is the database's becomes ServerBusy. */
  private RuntimeException failure(Throwable e) {
    if (e instanceof Error error) {
      throw error;
    }
    if (e instanceof java.sql.SQLException sqlFailure) {
      return errors.translate(new org.jooq.exception.DataAccessException(
          "The transaction could not be committed: " + sqlFailure.getMessage(), sqlFailure));
    }
    return errors.translate((RuntimeException) e);
  }

  /** Closes the physical connection so that no pool hands it out again, whatever state it is in. */
  private void abandon(java.sql.Connection connection, Throwable cause) {
    try {
      if (dataSource instanceof HikariDataSource pool) {
        pool.evictConnection(connection);
      }
      connection.abort(Runnable::run);
    } catch (java.sql.SQLException | RuntimeException abortFailure) {
      cause.addSuppressed(abortFailure);
    }
  }

  DataSource dataSource() {
    return dataSource;
  }

  @Override
  public void close() {
    if (ownedPool != null) {
      ownedPool.close();
    }
  }
}
