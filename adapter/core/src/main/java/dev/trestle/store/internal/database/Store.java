package dev.trestle.store.internal.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.store.H2IndexRepair;
import dev.trestle.store.SchemaMigrator;
import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.codec.VersionClock;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultConnectionProvider;

/**
 * What every account's service shares: the jOOQ context over one DataSource, the database's
 * dialect, the property codec and what is known of the optional property index. Owns the pool when
 * it created it from a JDBC URL.
 */
public final class Store implements AutoCloseable {
  public final DSLContext sql;
  public final Dialect dialect;
  public final SqlErrors errors;
  public final PropertyCodec properties;
  public final QueryLimits queryLimits;
  public final PageReader pages;
  public final GroupGuard groups;
  public final PropertyIndex propertyIndex;
  public final IndexBuilder indexBuilder;

  /** Row estimates that pages ask for repeatedly, remembered for a few seconds. */
  public final RowEstimates estimates = new RowEstimates();

  /** The SQL text of query pages, by the scan's shape. */
  public final ScanStatements scanStatements = new ScanStatements();

  /** The SQL text of the write path and the point read, run through plain JDBC. */
  public final EntityStatements statements;

  /** Where new versions come from. */
  public final VersionClock versions;

  /**
   * How long a statement may go without an answer before its connection counts as lost and the call
   * fails with ServerBusy: the HikariCP pool's wait for a connection, at least a second. Without
   * it, a call in flight when the network to the database goes silent would wait for TCP to give
   * up, many minutes. Statements that may rightly run longer are allowed more ({@link
   * #allowSilence}, {@link #unhurried}). 0: no limit (a database whose type does not bound
   * silences, such as embedded H2, or a DataSource that is not a HikariCP pool).
   */
  public final long silenceMillis;

  private final TranslatingConnectionProvider connections;

  /** The data source as given: its pool's settings. */
  private final DataSource given;

  /** What every statement goes through: the given source, its writers ordered where needed. */
  private final DataSource dataSource;

  private final HikariDataSource ownedPool;

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Store.class);

  private Store(
      DataSource dataSource,
      HikariDataSource ownedPool,
      QueryLimits queryLimits,
      VersionClock versions,
      boolean scalarStore) {
    this.given = dataSource;
    this.versions = versions;
    this.queryLimits = queryLimits;
    this.ownedPool = ownedPool;
    DatabaseType type = DatabaseTypes.of(dataSource);
    this.dataSource = type.writersOf(dataSource);
    this.dialect = scalarStore ? type.dialect().withScalarStore() : type.dialect();
    this.errors = new SqlErrors(type.sqlStates());
    this.pages = type.pageReader();
    this.groups = type.groupGuard();
    this.silenceMillis =
        type.boundsSilence() && given instanceof HikariDataSource pool
            ? Math.max(1000, pool.getConnectionTimeout())
            : 0;
    this.connections = new TranslatingConnectionProvider(this.dataSource, errors, silenceMillis);
    this.properties =
        new PropertyCodec(
            dialect::encodeText,
            dialect::decodeText,
            dialect::decodesAsIs,
            dialect::decodesUtf8AsIs);
    Settings settings =
        new Settings()
            // Unquoted names: the migrations create unquoted lower-case names, which H2 folds to
            // upper case.
            .withRenderQuotedNames(RenderQuotedNames.NEVER)
            .withExecuteLogging(false)
            .withRenderSchema(false);
    this.sql =
        DSL.using(
            new DefaultConfiguration()
                .set(connections)
                .set(dialect.sqlDialect())
                .set(settings)
                // One place where a statement's failure that is the database's fault becomes
                // ServerBusy.
                .set(
                    ExecuteListener.onException(
                        context -> context.exception(errors.translate(context.exception())))));
    this.propertyIndex = type.propertyIndex(sql, dialect, properties);
    this.indexBuilder = type.indexBuilder(dialect);
    // A table renders as its declaration only in a FROM clause.
    String from = sql.render(DSL.selectOne().from(dialect.entitiesForReading("e")));
    this.statements =
        new EntityStatements(dialect, from.substring(from.toLowerCase().indexOf(" from ") + 6));
  }

  public static Store open(StoreSettings settings, QueryLimits queryLimits) {
    return open(settings, queryLimits, VersionClock.SYSTEM);
  }

  /** A store whose new versions come from {@code versions} (a test's skewed clock). */
  public static Store open(StoreSettings settings, QueryLimits queryLimits, VersionClock versions) {
    if (settings.dataSource() != null) {
      return ready(
          new Store(settings.dataSource(), null, queryLimits, versions, false),
          settings,
          H2IndexRepair.beforeOpening(null));
    }
    // before the pool opens the file: H2 marks it clean again only when it closes it
    H2IndexRepair repair = H2IndexRepair.beforeOpening(settings.jdbcUrl());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(
        dev.trestle.store.TransactionPooler.adapt(
            settings.jdbcUrl(), settings.username(), settings.password()));
    config.setUsername(settings.username());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.maximumPoolSize());
    config.setConnectionTimeout(settings.connectionTimeout().toMillis());
    // A pooled connection idle for a while is checked before it is handed out; the check must not
    // outlast the
    // wait (its default is 5 s), or a silent database would hold a call well past the wait it was
    // promised.
    config.setValidationTimeout(Math.max(250, settings.connectionTimeout().toMillis() / 2));
    config.setPoolName("trestle");
    HikariDataSource pool = new HikariDataSource(config);
    try {
      return ready(new Store(pool, pool, queryLimits, versions, false), settings, repair);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private static Store ready(Store store, StoreSettings settings, H2IndexRepair repair) {
    dev.trestle.store.TransactionPooler.check(store.dataSource());
    store.dialect.prepareDatabase(store.sql);
    if (settings.migrate()) {
      SchemaMigrator.migrate(store.dataSource(), settings.scalarStore());
    } else {
      SchemaMigrator.refuseNewerSchema(store.dataSource());
    }
    repair.afterMigrations(store.dataSource());
    // The database decides, whatever this start asked: every server of a database that has the
    // scalar store keeps it in step.
    if (SchemaMigrator.hasScalarStore(store.dataSource())) {
      store = new Store(store.given, store.ownedPool, store.queryLimits, store.versions, true);
      log.info("The database has the scalar store: filters on properties without an index read it");
    } else if (settings.scalarStore()) {
      throw new IllegalStateException(
          "This database has no scalar store: it can only be chosen when the schema is migrated to"
              + " version 8, and migrations are off");
    }
    store.propertyIndex
        .present(); // looked up at start, so that the log says from the start whether it is used
    return store;
  }

  /**
   * Connections this store may hold at once: its pool's size, or 1 when its data source does not
   * say (a DataSource that is not a HikariCP pool).
   */
  public int connectionsAtOnce() {
    return given instanceof HikariDataSource pool ? pool.getMaximumPoolSize() : 1;
  }

  /**
   * Runs work on one pooled connection, held throughout: a call of several statements waits for a
   * connection once, so its wait is bounded by the pool's, not by a multiple of it. The work's
   * context hands out that connection, also to {@link #inSnapshot} and {@link #inTransaction}.
   */
  public <T> T onOneConnection(Function<DSLContext, T> work) {
    return onConnection(sql, connection -> work.apply(using(connection)));
  }

  /**
   * Runs plain JDBC work on a pooled connection (or the context's, in a transaction); its
   * SQLExceptions become jOOQ's DataAccessException, and those the database's fault ServerBusy.
   */
  public <T> T withConnection(DSLContext context, org.jooq.ConnectionCallable<T> work) {
    return onConnection(
        context,
        connection -> {
          try {
            return work.run(connection);
          } catch (java.sql.SQLException e) {
            throw new DataAccessException(e.getMessage(), e);
          }
        });
  }

  /**
   * Lets the context's connection wait this much longer than {@link #silenceMillis} for its next
   * answers.
   */
  public void allowSilence(DSLContext context, long extraMillis) {
    if (silenceMillis > 0) {
      onConnection(
          context,
          connection -> {
            connections.allowSilence(connection, silenceMillis + extraMillis);
            return null;
          });
    }
  }

  /**
   * Runs work that may rightly keep the database busy for long (a table's cascading delete): no
   * silence limit.
   */
  public <T> T unhurried(Function<DSLContext, T> work) {
    return onOneConnection(
        context -> {
          if (silenceMillis > 0) {
            onConnection(
                context,
                connection -> {
                  connections.allowSilence(connection, 0);
                  return null;
                });
          }
          return work.apply(context);
        });
  }

  /** Runs reads in one read-only snapshot, on a connection of its own. */
  public <T> T inSnapshot(Function<DSLContext, T> reads) {
    return inSnapshot(sql, reads);
  }

  /**
   * Runs reads in one read-only snapshot (REPEATABLE READ) on the context's connection, so that
   * several statements of one page see the same committed state and never half of an entity-group
   * transaction.
   */
  public <T> T inSnapshot(DSLContext context, Function<DSLContext, T> reads) {
    java.util.Optional<String> snapshot = dialect.snapshotStatement();
    if (snapshot.isPresent()) {
      return inTransaction(
          context,
          tx -> {
            tx.execute(snapshot.get());
            return reads.apply(tx);
          });
    }
    return onConnection(
        context,
        connection -> {
          int isolation = connection.getTransactionIsolation();
          connection.setAutoCommit(false);
          connection.setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
          try {
            return runAndEnd(connection, reads);
          } finally {
            if (!connection.isClosed()) {
              restore(connection, () -> connection.setTransactionIsolation(isolation));
            }
          }
        });
  }

  /** Runs statements in one transaction, on a connection of its own. */
  public <T> T inTransaction(Function<DSLContext, T> work) {
    return inTransaction(sql, work);
  }

  /**
   * Runs statements in one transaction on the context's connection at the connection's own
   * isolation, for what must outlive one statement (a cursor), and ends it: committed, or rolled
   * back on failure. Unlike jOOQ's transactionResult it does not read the isolation level first (a
   * round trip on pgjdbc).
   */
  public <T> T inTransaction(DSLContext context, Function<DSLContext, T> work) {
    return onConnection(
        context,
        connection -> {
          connection.setAutoCommit(false);
          return runAndEnd(connection, work);
        });
  }

  /**
   * Runs the work in the connection's open transaction and commits it, or rolls it back on failure;
   * then returns the connection to auto-commit. A connection whose rollback failed is aborted
   * instead: its transaction's state is unknown, and restoring auto-commit would commit whatever
   * part of it the database still holds (pgjdbc commits an open transaction on
   * setAutoCommit(true)), so it must never be used again.
   */
  private <T> T runAndEnd(java.sql.Connection connection, Function<DSLContext, T> work)
      throws java.sql.SQLException {
    T result;
    try {
      result = work.apply(using(connection));
      connection.commit();
    } catch (RuntimeException | Error | java.sql.SQLException e) {
      try {
        connection.rollback();
      } catch (java.sql.SQLException | RuntimeException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
        abandon(connection, e);
        throw failure(e);
      }
      // Rolled back: a connection that cannot take auto-commit back is dropped, and the work's
      // failure stands.
      restore(connection, () -> connection.setAutoCommit(true));
      throw failure(e);
    }
    // Committed: the result stands whatever becomes of the connection now.
    restore(connection, () -> connection.setAutoCommit(true));
    return result;
  }

  private interface Restoring {
    void run() throws java.sql.SQLException;
  }

  /**
   * Returns a connection to its pooled state after its transaction ended; one that fails to (its
   * database gone the moment after) is dropped from the pool instead, without failing a call whose
   * outcome is already decided.
   */
  private void restore(java.sql.Connection connection, Restoring restoring) {
    try {
      restoring.run();
    } catch (java.sql.SQLException | RuntimeException e) {
      abandon(connection, e);
    }
  }

  /**
   * Runs work on the context's connection; the connection's own failures (one that cannot be had,
   * or is lost outside any statement) become ServerBusy as a statement's do.
   */
  private <T> T onConnection(DSLContext context, org.jooq.ConnectionCallable<T> work) {
    try {
      return context == sql ? onPooledConnection(work) : context.connectionResult(work);
    } catch (DataAccessException e) {
      throw errors.translate(e);
    }
  }

  /**
   * What jOOQ's connectionResult does for the store's own context, without the transaction provider
   * its configuration allocates on every call to find its connection provider (a hot path's cost:
   * each point read and single write comes here once).
   */
  private <T> T onPooledConnection(org.jooq.ConnectionCallable<T> work) {
    java.sql.Connection connection = connections.acquire();
    try {
      return work.run(connection);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new DataAccessException("Error while running ConnectionCallable", e);
    } finally {
      connections.release(connection);
    }
  }

  private DSLContext using(java.sql.Connection connection) {
    return DSL.using(sql.configuration().derive(new DefaultConnectionProvider(connection)));
  }

  /**
   * What a failed transaction throws: a failed commit whose cause is the database's becomes
   * ServerBusy.
   */
  private RuntimeException failure(Throwable e) {
    if (e instanceof Error error) {
      throw error;
    }
    if (e instanceof java.sql.SQLException sqlFailure) {
      return errors.translate(
          new org.jooq.exception.DataAccessException(
              "The transaction could not be committed: " + sqlFailure.getMessage(), sqlFailure));
    }
    return errors.translate((RuntimeException) e);
  }

  /** Closes the physical connection so that no pool hands it out again, whatever state it is in. */
  private void abandon(java.sql.Connection connection, Throwable cause) {
    try {
      if (given instanceof HikariDataSource pool) {
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
