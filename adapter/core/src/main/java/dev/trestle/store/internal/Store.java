package dev.trestle.store.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableServiceBuilder;
import dev.trestle.store.SchemaMigrator;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * What every account's service shares: the jOOQ context over one DataSource, the database's dialect, the
 * property codec and what is known of the optional property index. Owns the pool when it created it from a
 * JDBC URL.
 */
final class Store implements AutoCloseable {
  final DSLContext sql;
  final Dialect dialect;
  final PropertyCodec properties;
  final QueryLimits queryLimits;
  final PropertyIndex propertyIndex;
  private final DataSource dataSource;
  private final HikariDataSource ownedPool;

  private Store(DataSource dataSource, HikariDataSource ownedPool, QueryLimits queryLimits) {
    this.dataSource = dataSource;
    this.queryLimits = queryLimits;
    this.ownedPool = ownedPool;
    this.dialect = Dialect.of(DatabaseKind.of(dataSource));
    this.properties = new PropertyCodec(dialect::encodeText, dialect::decodeText);
    Settings settings = new Settings()
        // Unquoted names: the migrations create unquoted lower-case names, which H2 folds to upper case.
        .withRenderQuotedNames(RenderQuotedNames.NEVER)
        .withExecuteLogging(false)
        .withRenderSchema(false);
    this.sql = DSL.using(dataSource, dialect.sqlDialect(), settings);
    this.propertyIndex = dialect instanceof PostgresDialect
        ? new PropertyIndex(sql, dialect, properties, PropertyIndex.RECHECK)
        : PropertyIndex.NONE;
  }

  static Store open(TableServiceBuilder.Settings settings, QueryLimits queryLimits) {
    if (settings.dataSource() != null) {
      return ready(new Store(settings.dataSource(), null, queryLimits), settings);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.jdbcUrl());
    config.setUsername(settings.username());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.maximumPoolSize());
    config.setPoolName("trestle");
    HikariDataSource pool = new HikariDataSource(config);
    try {
      return ready(new Store(pool, pool, queryLimits), settings);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private static Store ready(Store store, TableServiceBuilder.Settings settings) {
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
  <T> T inSnapshot(java.util.function.Function<DSLContext, T> reads) {
    if (dialect.sqlDialect().family() == org.jooq.SQLDialect.POSTGRES) {
      // One statement that sets this transaction only, instead of reading, setting and restoring the
      // connection's level, which pgjdbc does with a round trip each.
      return inTransaction(context -> {
        context.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
        return reads.apply(context);
      });
    }
    return sql.connectionResult(connection -> {
      int isolation = connection.getTransactionIsolation();
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
      try {
        T result = reads.apply(DSL.using(connection, sql.dialect(), sql.settings()));
        connection.commit();
        return result;
      } catch (RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setTransactionIsolation(isolation);
        connection.setAutoCommit(autoCommit);
      }
    });
  }

  /**
   * Runs statements in one transaction at the connection's own isolation, for what must outlive one statement
   * (a cursor), and ends it: committed, or rolled back on failure. Unlike jOOQ's transactionResult it does not
   * read the isolation level first (a round trip on pgjdbc).
   */
  <T> T inTransaction(java.util.function.Function<DSLContext, T> work) {
    return sql.connectionResult(connection -> {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try {
        T result = work.apply(DSL.using(connection, sql.dialect(), sql.settings()));
        connection.commit();
        return result;
      } catch (RuntimeException | Error e) {
        try {
          connection.rollback();
        } catch (java.sql.SQLException | RuntimeException rollbackFailure) {
          e.addSuppressed(rollbackFailure);
        }
        throw e;
      } finally {
        connection.setAutoCommit(autoCommit);
      }
    });
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
