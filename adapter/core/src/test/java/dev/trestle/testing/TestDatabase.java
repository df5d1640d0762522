package dev.trestle.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableService;
import dev.trestle.store.SchemaMigrator;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;

/**
 * One test database per kind and JVM, migrated once and shared by all tests; tests isolate
 * themselves by account ({@link #newService()} hands out a fresh one each time). On PostgreSQL the
 * JVM also gets its own schema, so test runs of different branches on one server never meet, even
 * with different migrations.
 */
public final class TestDatabase {
  /** The databases tests run on. */
  public enum Kind {
    H2("H2"),
    POSTGRESQL("PostgreSQL"),
    /**
     * PostgreSQL with the optional GIN index of {@code sql/postgresql/property-index.sql}, in a
     * schema of its own.
     */
    POSTGRESQL_PROPERTY_INDEX("PostgreSQL with property index"),
    /** PostgreSQL created with the scalar store, in a schema of its own. */
    POSTGRESQL_SCALAR_STORE("PostgreSQL with scalar store");

    private final String displayName;

    Kind(String displayName) {
      this.displayName = displayName;
    }

    public String displayName() {
      return displayName;
    }
  }

  private static final Map<Kind, Object> STARTED = new ConcurrentHashMap<>();
  private static final AtomicLong ACCOUNTS = new AtomicLong();

  private final Kind kind;
  private final String jdbcUrl;
  private final String username;
  private final String password;
  private final HikariDataSource dataSource;
  // PostgreSQL: the services' statements are checked for confinement to one partition
  private final DataSource recorded;

  private TestDatabase(Kind kind, String jdbcUrl, String username, String password, String schema) {
    this.kind = kind;
    this.jdbcUrl = jdbcUrl;
    this.username = username;
    this.password = password;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(username);
    config.setPassword(password);
    config.setMaximumPoolSize(12);
    config.setPoolName("test-" + kind.name().toLowerCase());
    if (schema != null) {
      config.setSchema(schema);
    }
    this.dataSource = new HikariDataSource(config);
    SchemaMigrator.migrate(dataSource, kind == Kind.POSTGRESQL_SCALAR_STORE);
    this.recorded =
        kind == Kind.H2 ? null : RecordingDataSource.wrap(dataSource, PartitionConfinement::check);
  }

  /**
   * The database of this kind, started and migrated on first use. A PostgreSQL that cannot be had
   * skips the calling test, or fails it when the environment says {@code CI=true}.
   */
  public static TestDatabase get(Kind kind) {
    Object started = STARTED.computeIfAbsent(kind, TestDatabase::start);
    if (started instanceof TestDatabase database) {
      return database;
    }
    RuntimeException failure = (RuntimeException) started;
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(
          "No " + kind.displayName() + " for tests under CI=true: " + failure.getMessage(),
          failure);
    }
    Assumptions.abort("No " + kind.displayName() + " for tests: " + failure.getMessage());
    throw failure;
  }

  private static Object start(Kind kind) {
    try {
      TestDatabase database =
          switch (kind) {
            case H2 ->
                new TestDatabase(
                    kind,
                    "jdbc:h2:mem:trestle-"
                        + Long.toHexString(ThreadLocalRandom.current().nextLong())
                        + ";DB_CLOSE_DELAY=-1",
                    "sa",
                    "",
                    null);
            case POSTGRESQL, POSTGRESQL_SCALAR_STORE ->
                PostgresServer.startDatabase(
                    (url, user, password, schema) ->
                        new TestDatabase(kind, url, user, password, schema));
            case POSTGRESQL_PROPERTY_INDEX ->
                PostgresServer.startDatabase(
                    (url, user, password, schema) ->
                        new TestDatabase(kind, url, user, password, schema).withPropertyIndex());
          };
      Runtime.getRuntime().addShutdownHook(new Thread(database.dataSource::close));
      return database;
    } catch (RuntimeException e) {
      return e;
    }
  }

  private TestDatabase withPropertyIndex() {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(Files.readString(OperatorSql.file("property-index.sql")));
    } catch (SQLException | IOException e) {
      throw new IllegalStateException("Cannot create the property index: " + e.getMessage(), e);
    }
    return this;
  }

  public Kind kind() {
    return kind;
  }

  /** The migrated database, through a pool shared by the tests of this JVM. Never close it. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** The one number a query answers (a count, an id), its parameters bound in order. */
  public long queryLong(String query, Object... parameters) throws SQLException {
    try (java.sql.Connection connection = dataSource.getConnection();
        java.sql.PreparedStatement select = connection.prepareStatement(query)) {
      for (int i = 0; i < parameters.length; i++) {
        select.setObject(i + 1, parameters[i]);
      }
      try (java.sql.ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /** A JDBC URL for the same database; on PostgreSQL its schema is in {@link #schema()}. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  public String username() {
    return username;
  }

  public String password() {
    return password;
  }

  /**
   * The schema holding Trestle's tables on PostgreSQL (null on H2, which uses its default schema).
   */
  public String schema() {
    return dataSource.getSchema();
  }

  /** Where a database is, for tests that hand it to another process or a pooler. */
  public record Address(String url, String user, String password) {}

  /**
   * A PostgreSQL database of its own on the tests' server, created when missing (not migrated), for
   * tests whose connections cannot carry a schema: another process, or a pooler that does not keep
   * session state.
   */
  public static Address dedicatedPostgresDatabase(String name) {
    PostgresServer.Endpoint endpoint = PostgresServer.dedicatedDatabase(name);
    return new Address(endpoint.url(), endpoint.user(), endpoint.password());
  }

  /** An account name no other test of any run uses. */
  public static String newAccount() {
    return "t"
        + Long.toString(ACCOUNTS.incrementAndGet(), 36)
        + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36).substring(0, 10);
  }

  /** A service on this database for a fresh account; close it after use (the pool stays open). */
  public TableService newService() {
    return newService(newAccount());
  }

  /** A service for a fresh account whose extensions are switched off. */
  public TableService newServiceWithExtensionsOff() {
    return TableService.builder()
        .dataSource(dataSource)
        .account(newAccount())
        .migrate(false)
        .extensions(false)
        .build();
  }

  /**
   * A builder of a service for a fresh account on this database (statements recorded as {@link
   * #newService()}'s are), for a test that needs a setting of its own.
   */
  public dev.trestle.TableServiceBuilder newServiceBuilder() {
    return TableService.builder()
        .dataSource(recorded == null ? dataSource : recorded)
        .account(newAccount())
        .migrate(false);
  }

  public TableService newService(String account) {
    return TableService.builder()
        .dataSource(recorded == null ? dataSource : recorded)
        .account(account)
        .migrate(false)
        .build();
  }
}
