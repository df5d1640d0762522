package dev.trestle;

import dev.trestle.model.TableLimits;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.StoreSettings;
import javax.sql.DataSource;

/**
 * Configures a {@link TableService}: either a caller's {@link DataSource} or a JDBC URL for which
 * the service creates and owns a connection pool. Settings are checked when {@link #build()} is
 * called.
 */
public final class TableServiceBuilder {
  private DataSource dataSource;
  private String jdbcUrl;
  private String username;
  private String password;
  private int maximumPoolSize = 10;
  private java.time.Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
  private String account = TableService.DEFAULT_ACCOUNT;
  private boolean migrate = true;
  private boolean extensions = true;
  private RelaxedTransactions relaxedTransactions;
  private boolean scalarStore;

  /**
   * How long a call waits for a pooled connection before it fails with ServerBusy, unless
   * configured.
   */
  public static final java.time.Duration DEFAULT_CONNECTION_TIMEOUT =
      java.time.Duration.ofSeconds(2);

  TableServiceBuilder() {}

  /**
   * Use this DataSource; the service never closes it. A HikariCP pool's connection timeout also
   * bounds how long a statement on PostgreSQL waits for an answer, as with {@link
   * #connectionTimeout}.
   */
  public TableServiceBuilder dataSource(DataSource dataSource) {
    this.dataSource = dataSource;
    return this;
  }

  /**
   * Create a pool for this URL, e.g. {@code jdbc:postgresql://localhost/app} or {@code
   * jdbc:h2:file:./data}.
   */
  public TableServiceBuilder jdbcUrl(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
    return this;
  }

  /**
   * User and password for the pool created for {@link #jdbcUrl(String)}; null for none (e.g.
   * in-memory H2).
   */
  public TableServiceBuilder credentials(String username, String password) {
    this.username = username;
    this.password = password;
    return this;
  }

  /** Size of the pool created for {@link #jdbcUrl(String)}; default 10. */
  public TableServiceBuilder maximumPoolSize(int maximumPoolSize) {
    this.maximumPoolSize = maximumPoolSize;
    return this;
  }

  /**
   * How long a call waits for a connection of the pool created for {@link #jdbcUrl(String)} (the
   * database unreachable, or every connection busy) before it fails with {@code ServerBusy}, which
   * the Azure SDKs retry; default 2 seconds, at least 250 ms. On PostgreSQL it also bounds how long
   * a statement waits for an answer (at least a second; a query page's statements get the page's
   * time on top), so that a database gone silent fails calls in flight with {@code ServerBusy} too.
   */
  public TableServiceBuilder connectionTimeout(java.time.Duration connectionTimeout) {
    this.connectionTimeout = connectionTimeout;
    return this;
  }

  /** The account this service object serves; default {@code devstoreaccount1}. */
  public TableServiceBuilder account(String account) {
    this.account = account;
    return this;
  }

  /**
   * Apply schema migrations on build (default true); turn off when an operator runs them
   * separately.
   */
  public TableServiceBuilder migrate(boolean migrate) {
    this.migrate = migrate;
    return this;
  }

  /**
   * Whether {@link TableClient#extensions()} answers (default true); false makes every extension
   * fail with {@code NotImplemented}, for an operator who wants only what Azure offers. Standard
   * operations answer the same either way.
   */
  public TableServiceBuilder extensions(boolean extensions) {
    this.extensions = extensions;
    return this;
  }

  /**
   * Whether a database whose schema this service creates (or upgrades to version 8) gets the scalar
   * store (default false; PostgreSQL only): a narrow copy of each entity's small typed values, kept
   * by every write, that filters on properties without a declared index read instead of the whole
   * entities, several times cheaper; each write of an entity costs more (a 100-entity batch about
   * half again). The choice is the database's from then on: a service on a database that has the
   * store uses it whatever it was built with, and asking for it on a database created without it
   * fails the build (copy the data into a new database instead).
   */
  public TableServiceBuilder scalarStore(boolean scalarStore) {
    this.scalarStore = scalarStore;
    return this;
  }

  /**
   * Enables relaxed transactions ({@link ServiceExtensions#submitTransaction}) within {@link
   * RelaxedTransactions#DEFAULT}'s bounds, or disables them (the default). They need the extensions
   * on.
   */
  public TableServiceBuilder relaxedTransactions(boolean enabled) {
    return relaxedTransactions(enabled ? RelaxedTransactions.DEFAULT : null);
  }

  /**
   * Enables relaxed transactions within these bounds (null disables them): transactions of more
   * than 100 operations and 4 MiB, across partitions and tables. Off by default; across partitions
   * they do not scale out on a database sharded by partition key.
   */
  public TableServiceBuilder relaxedTransactions(RelaxedTransactions bounds) {
    this.relaxedTransactions = bounds;
    return this;
  }

  /**
   * Opens the service: creates the pool if a URL was given, checks the database is supported and
   * migrates its schema unless {@code migrate(false)}.
   *
   * @throws IllegalStateException naming the setting to fix when the configuration is invalid
   */
  public TableService build() {
    if ((dataSource == null) == (jdbcUrl == null)) {
      throw new IllegalStateException(
          "Set exactly one of dataSource(...) or jdbcUrl(...): Trestle needs one database to store tables in.");
    }
    if (maximumPoolSize < 1) {
      throw new IllegalStateException(
          "maximumPoolSize must be at least 1, was " + maximumPoolSize + ".");
    }
    if (connectionTimeout == null || connectionTimeout.toMillis() < 250) {
      throw new IllegalStateException(
          "connectionTimeout must be at least 250 ms, was " + connectionTimeout + ".");
    }
    if (account == null || !TableLimits.ACCOUNT_NAME.matcher(account).matches()) {
      throw new IllegalStateException(
          "account must be 3-24 lower-case letters or digits, as Azure storage account names are; was '"
              + account
              + "'.");
    }
    if (relaxedTransactions != null) {
      if (!extensions) {
        throw new IllegalStateException(
            "relaxedTransactions needs the extensions on: drop extensions(false), or relaxedTransactions(false).");
      }
      if (relaxedTransactions.maxOperations() < 1 || relaxedTransactions.maxBytes() < 1) {
        throw new IllegalStateException(
            "relaxedTransactions' maxOperations and maxBytes must be at least 1, were "
                + relaxedTransactions
                + ".");
      }
    }
    String url;
    try {
      url = dev.trestle.store.JdbcUrls.durable(jdbcUrl);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return SqlTableService.open(
        new StoreSettings(
            dataSource,
            url,
            username,
            password,
            maximumPoolSize,
            connectionTimeout,
            account,
            migrate,
            extensions,
            relaxedTransactions,
            scalarStore));
  }
}
