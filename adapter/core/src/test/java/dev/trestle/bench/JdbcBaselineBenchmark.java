package dev.trestle.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.SchemaMigrator;
import dev.trestle.testing.TestDatabase;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * How much the library costs over the least JDBC that does the same work, on H2 (file) and
 * PostgreSQL ({@code TRESTLE_TEST_PG_URL}, else embedded): a single-entity insert, a point read by
 * primary key, and an entity-group transaction of 100 inserts, each through {@link TableService}
 * and through hand-written JDBC on the same table, pool and thread. Prints ops/s, the library/raw
 * ratio, the JVM CPU per operation of each, and the JDBC calls the library makes per operation. Not
 * a test (no assertions, not run by surefire):
 *
 * <pre>
 *   ./mvnw -B -q -pl adapter/core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp adapter/core/target/classes:adapter/core/target/test-classes:$(cat adapter/core/target/cp.txt) \
 *       dev.trestle.bench.JdbcBaselineBenchmark [seconds-per-measurement] [rounds] [h2|pg ...]
 * </pre>
 *
 * Library and raw runs alternate (round after round), so drift on a shared machine hits both alike.
 */
public final class JdbcBaselineBenchmark {
  private static final String TABLE = "bench";
  private static final int BATCH = 100;
  private static final int ROWS_PER_PARTITION = 1000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final String database;
  private final DataSource dataSource;
  private final String account;
  private final TableClient library;
  private final RawJdbc raw;
  private final double seconds;
  private int sequence;

  private JdbcBaselineBenchmark(
      String database, DataSource dataSource, TableService service, double seconds)
      throws SQLException {
    this.database = database;
    this.dataSource = dataSource;
    this.account = service.accountName();
    service.createTableIfNotExists(TABLE);
    this.library = service.tableClient(TABLE);
    this.raw = new RawJdbc(dataSource, database.equals("PostgreSQL"), service.accountName(), TABLE);
    this.seconds = seconds;
  }

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    List<String> databases =
        args.length > 2 ? List.of(args).subList(2, args.length) : List.of("h2", "pg");
    List<String> report = new ArrayList<>();
    report.add(
        String.format(
            Locale.ROOT,
            "| database | operation | library ops/s | raw JDBC ops/s | library/raw"
                + " | library JVM CPU us/op | raw JVM CPU us/op | library JDBC calls per op |"));
    report.add("|---|---|---:|---:|---:|---:|---:|---|");
    for (String name : databases) {
      DataSource dataSource =
          switch (name) {
            case "h2" -> h2();
            case "pg" -> TestDatabase.get(TestDatabase.Kind.POSTGRESQL).dataSource();
            default -> throw new IllegalArgumentException("database must be h2 or pg, not " + name);
          };
      String database = name.equals("h2") ? "H2" : "PostgreSQL";
      try (TableService service =
          TableService.builder()
              .dataSource(dataSource)
              .account(TestDatabase.newAccount())
              .migrate(false)
              .build()) {
        report.addAll(
            new JdbcBaselineBenchmark(database, dataSource, service, seconds).run(rounds));
      }
    }
    System.out.println();
    report.forEach(System.out::println);
    System.exit(0); // the PostgreSQL test database drops its schema in a shutdown hook
  }

  private static DataSource h2() throws Exception {
    Path directory = Files.createTempDirectory("trestle-jdbc-baseline");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:file:" + directory.resolve("bench") + ";DB_CLOSE_ON_EXIT=FALSE");
    config.setUsername("sa");
    config.setMaximumPoolSize(4);
    HikariDataSource dataSource = new HikariDataSource(config);
    SchemaMigrator.migrate(dataSource);
    return dataSource;
  }

  private List<String> run(int rounds) throws SQLException {
    List<Operation> operations =
        List.of(
            new Operation("insert", this::libraryInsert, this::rawInsert),
            new Operation("point read", this::libraryRead, this::rawRead),
            new Operation("100-entity transaction", this::libraryBatch, this::rawBatch));
    // rows for the point reads, written through the library so that both sides read the same format
    for (int i = 0; i < ROWS_PER_PARTITION * 5; i++) {
      library.insert(entity("read" + (i / ROWS_PER_PARTITION), "r" + i, i));
    }
    List<String> lines = new ArrayList<>();
    for (Operation operation : operations) {
      // warm-up as long as a measurement: the JIT needs several seconds for jOOQ's and H2's paths
      Measurement warm = measure(operation.library, seconds);
      measure(operation.raw, seconds);
      double libraryOps = 0;
      double rawOps = 0;
      double libraryCpu = 0;
      double rawCpu = 0;
      for (int round = 0; round < rounds; round++) {
        Measurement l = measure(operation.library, seconds);
        Measurement r = measure(operation.raw, seconds);
        System.out.printf(
            Locale.ROOT,
            "%-10s %-22s round %d: library %8.1f ops/s, raw %8.1f ops/s%n",
            database,
            operation.name,
            round + 1,
            l.opsPerSecond(),
            r.opsPerSecond());
        libraryOps += l.opsPerSecond() / rounds;
        rawOps += r.opsPerSecond() / rounds;
        libraryCpu += l.cpuMicrosPerOp() / rounds;
        rawCpu += r.cpuMicrosPerOp() / rounds;
      }
      String calls = libraryCalls(operation.library, warm.ops() > 50 ? 50 : 5);
      lines.add(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.1f | %.1f | %.2f | %.1f | %.1f | %s |",
              database,
              operation.name,
              libraryOps,
              rawOps,
              libraryOps / rawOps,
              libraryCpu,
              rawCpu,
              calls));
    }
    return lines;
  }

  /**
   * The JDBC calls one library operation makes, averaged over a few operations through a counting
   * pool.
   */
  private String libraryCalls(Step step, int operations) throws SQLException {
    JdbcCallCounter counter = new JdbcCallCounter(dataSource);
    try (TableService counted =
        TableService.builder()
            .dataSource(counter.dataSource())
            .account(account)
            .migrate(false)
            .build()) {
      TableClient client = counted.tableClient(TABLE);
      counter.reset();
      for (int i = 0; i < operations; i++) {
        step.runOn(client);
      }
    }
    return counter.perOperation(operations);
  }

  private Measurement measure(Step step, double forSeconds) throws SQLException {
    long deadline = System.nanoTime() + (long) (forSeconds * 1e9);
    long ops = 0;
    long cpuStart = THREADS.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    do {
      step.runOn(library);
      ops++;
    } while (System.nanoTime() < deadline);
    long elapsed = System.nanoTime() - start;
    return new Measurement(ops, elapsed, THREADS.getCurrentThreadCpuTime() - cpuStart);
  }

  // --- the operations, library then raw
  // --------------------------------------------------------------------

  private void libraryInsert(TableClient client) {
    int n = sequence++;
    client.insert(entity("lib" + (n / ROWS_PER_PARTITION), "r" + n, n));
  }

  private void rawInsert(TableClient ignored) throws SQLException {
    int n = sequence++;
    raw.insert("raw" + (n / ROWS_PER_PARTITION), "r" + n, n);
  }

  private void libraryRead(TableClient client) {
    int n = Math.floorMod(sequence++ * 7919, ROWS_PER_PARTITION * 5);
    client.get("read" + (n / ROWS_PER_PARTITION), "r" + n);
  }

  private void rawRead(TableClient ignored) throws SQLException {
    int n = Math.floorMod(sequence++ * 7919, ROWS_PER_PARTITION * 5);
    raw.read("read" + (n / ROWS_PER_PARTITION), "r" + n);
  }

  private void libraryBatch(TableClient client) {
    String partition = "libbatch" + sequence++;
    List<TableOperation> operations = new ArrayList<>(BATCH);
    for (int i = 0; i < BATCH; i++) {
      operations.add(TableOperation.insert(entity(partition, "r" + i, i)));
    }
    client.submitTransaction(operations);
  }

  private void rawBatch(TableClient ignored) throws SQLException {
    raw.batch("rawbatch" + sequence++, BATCH);
  }

  /** About 1 KB of JSON with the ten typed properties table-bench writes. */
  static TableEntity entity(String partitionKey, String rowKey, int n) {
    return TableEntity.builder(partitionKey, rowKey)
        .put("Category", "c" + n % 10)
        .put("Price", n % 1000)
        .put("Quantity", n % 97)
        .put("Sku", 1_000_000_000_000L + n)
        .put("Ratio", n / 7.0)
        .put("Active", n % 2 == 0)
        .put("Created", Instant.ofEpochSecond(1_600_000_000L + n))
        .put("Uid", new UUID(n, n))
        .put("Data", new byte[48])
        .put("Description", RawJdbc.PADDING)
        .build();
  }

  interface Step {
    void runOn(TableClient client) throws SQLException;
  }

  private record Operation(String name, Step library, Step raw) {}

  private record Measurement(long ops, long nanos, long cpuNanos) {
    double opsPerSecond() {
      return ops / (nanos / 1e9);
    }

    double cpuMicrosPerOp() {
      return cpuNanos / 1e3 / ops;
    }
  }

  /**
   * The least JDBC for each operation: one statement in auto-commit for the insert and the read
   * (the table's id is looked up once), one JDBC batch in one transaction for the 100 inserts.
   * Properties are written as JSON text of the same shape and size as the library's, built with a
   * StringBuilder.
   */
  private static final class RawJdbc {
    static final String PADDING = "x".repeat(560);

    private final DataSource dataSource;
    private final String insertSql;
    private final long tableId;

    RawJdbc(DataSource dataSource, boolean postgres, String account, String table)
        throws SQLException {
      this.dataSource = dataSource;
      this.insertSql =
          "INSERT INTO trestle_entity (table_id, partition_key, row_key, ticks, properties) VALUES (?, ?, ?, ?, "
              + (postgres ? "CAST(? AS jsonb))" : "?)");
      try (Connection connection = dataSource.getConnection();
          PreparedStatement select =
              connection.prepareStatement(
                  "SELECT id FROM trestle_table WHERE account = ? AND name_key = ?")) {
        select.setString(1, account);
        select.setString(2, table.toLowerCase(Locale.ROOT));
        try (ResultSet rows = select.executeQuery()) {
          rows.next();
          this.tableId = rows.getLong(1);
        }
      }
    }

    void insert(String partitionKey, String rowKey, int n) throws SQLException {
      try (Connection connection = dataSource.getConnection();
          PreparedStatement insert = connection.prepareStatement(insertSql)) {
        bind(insert, partitionKey, rowKey, n);
        insert.executeUpdate();
      }
    }

    void read(String partitionKey, String rowKey) throws SQLException {
      try (Connection connection = dataSource.getConnection();
          PreparedStatement select =
              connection.prepareStatement(
                  "SELECT ticks, properties FROM trestle_entity WHERE table_id = ? AND partition_key = ? AND row_key = ?")) {
        select.setLong(1, tableId);
        select.setString(2, partitionKey);
        select.setString(3, rowKey);
        try (ResultSet rows = select.executeQuery()) {
          if (!rows.next() || rows.getString(2) == null) {
            throw new IllegalStateException("no row " + partitionKey + "/" + rowKey);
          }
        }
      }
    }

    void batch(String partitionKey, int size) throws SQLException {
      try (Connection connection = dataSource.getConnection()) {
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement(insertSql)) {
          for (int i = 0; i < size; i++) {
            bind(insert, partitionKey, "r" + i, i);
            insert.addBatch();
          }
          insert.executeBatch();
          connection.commit();
        } catch (SQLException e) {
          connection.rollback();
          throw e;
        } finally {
          connection.setAutoCommit(true);
        }
      }
    }

    private void bind(PreparedStatement insert, String partitionKey, String rowKey, int n)
        throws SQLException {
      insert.setLong(1, tableId);
      insert.setString(2, partitionKey);
      insert.setString(3, rowKey);
      insert.setLong(4, System.currentTimeMillis() * 10_000L);
      insert.setString(5, json(n));
    }

    private static String json(int n) {
      StringBuilder json = new StringBuilder(1024);
      json.append("{\"Category\":[\"s\",\"c")
          .append(n % 10)
          .append("\",0],")
          .append("\"Price\":[\"i\",")
          .append(n % 1000)
          .append(",1],")
          .append("\"Quantity\":[\"i\",")
          .append(n % 97)
          .append(",2],")
          .append("\"Sku\":[\"l\",\"")
          .append(1_000_000_000_000L + n)
          .append("\",3],")
          .append("\"Ratio\":[\"d\",")
          .append(n / 7.0)
          .append(",4],")
          .append("\"Active\":[\"b\",")
          .append(n % 2 == 0)
          .append(",5],")
          .append("\"Created\":[\"t\",\"")
          .append((1_600_000_000L + n) * 10_000_000L)
          .append("\",6],")
          .append("\"Uid\":[\"g\",\"")
          .append(new UUID(n, n))
          .append("\",7],")
          .append("\"Data\":[\"x\",\"")
          .append("00".repeat(48))
          .append("\",8],")
          .append("\"Description\":[\"s\",\"")
          .append(PADDING)
          .append("\",9]}");
      return json.toString();
    }
  }
}
