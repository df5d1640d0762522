package dev.trestle.store.internal;

import static dev.trestle.store.internal.database.Schema.ENTITIES;
import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Throughput of the library on H2 (file database) and PostgreSQL ({@code TRESTLE_TEST_PG_URL}, else
 * embedded): single inserts/s, point reads/s and 100-entity transactions/s on one thread, then a
 * full filtered scan (non-key property, every page) over 1,000,000 entities and partition scans.
 * Not a test: run it with
 *
 * <pre>
 *   ./mvnw -q -pl adapter/core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -Xmx2g -cp adapter/core/target/classes:adapter/core/target/test-classes:$(cat adapter/core/target/cp.txt) \
 *       dev.trestle.store.internal.StoreBenchmark [entities-for-scan]
 * </pre>
 *
 * The 1,000,000 scan entities are written with batched INSERTs of rows encoded by the store's own
 * codec (loading them through transactions of 100 would dominate the run); everything measured goes
 * through the public API.
 */
public final class StoreBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(StoreBenchmark.class);
  private static final int SINGLE_OPS = 3000;
  private static final int READS = 20000;
  private static final int TRANSACTIONS = 200;
  private static final int ROWS_PER_PARTITION = 1000;

  private StoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    int scanEntities = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    Path h2Dir = Files.createTempDirectory("trestle-bench");
    Map<String, DataSource> databases = new LinkedHashMap<>();
    databases.put("H2", h2(h2Dir));
    databases.put("PostgreSQL", TestDatabase.get(TestDatabase.Kind.POSTGRESQL).dataSource());
    List<String> report = new ArrayList<>();
    for (var database : databases.entrySet()) {
      report.add(run(database.getKey(), database.getValue(), scanEntities));
    }
    report.forEach(line -> LOG.warn("{}", line));
    System.exit(0);
  }

  private static DataSource h2(Path directory) {
    var config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl("jdbc:h2:file:" + directory.resolve("bench") + ";CACHE_SIZE=262144");
    config.setUsername("sa");
    config.setMaximumPoolSize(4);
    var dataSource = new com.zaxxer.hikari.HikariDataSource(config);
    dev.trestle.store.SchemaMigrator.migrate(dataSource);
    return dataSource;
  }

  private static String run(String name, DataSource dataSource, int scanEntities) {
    String account = TestDatabase.newAccount();
    StoreSettings settings = StoreSettings.onDataSource(dataSource, account);
    try (TableService service = SqlTableService.open(settings)) {
      service.createTable("bench");
      TableClient table = service.tableClient("bench");
      Random random = new Random(1);

      singleInserts(table, 500, "warm"); // warm-up: JIT, pool, plans
      double insertsPerSecond = singleInserts(table, SINGLE_OPS, "single");
      pointReads(table, READS / 4, random);
      double readsPerSecond = pointReads(table, READS, random);
      submitTransactions(table, 20, "warm");
      double transactionsPerSecond = submitTransactions(table, TRANSACTIONS, "batch");

      service.createTable("scan");
      long loadStart = System.nanoTime();
      bulkLoad(dataSource, settings, account, scanEntities);
      double loadSeconds = seconds(loadStart);
      TableClient scan = service.tableClient("scan");
      long[] filtered = fullScan(scan, "n eq 7");
      double partitionRate = partitionScans(scan, scanEntities / ROWS_PER_PARTITION, random);
      return String.format(
          Locale.ROOT,
          "%-10s single inserts %,8.0f/s | point reads %,8.0f/s | 100-entity transactions %,6.1f/s"
              + " | full filtered scan of %,d entities: %.2f s (%d matches, %d pages; load %.0f s)"
              + " | partition scans %,8.0f entities/s",
          name,
          insertsPerSecond,
          readsPerSecond,
          transactionsPerSecond,
          scanEntities,
          filtered[0] / 1e9,
          filtered[1],
          filtered[2],
          loadSeconds,
          partitionRate);
    }
  }

  private static TableEntity sample(String partition, String row, int n) {
    return TableEntity.builder(partition, row)
        .put("n", n)
        .put("s", "value-" + n)
        .put("d", n * 0.5)
        .put("l", (long) n << 20)
        .put("b", n % 2 == 0)
        .put("t", Instant.ofEpochSecond(1_600_000_000L + n))
        .put("g", new UUID(n, n))
        .build();
  }

  private static double singleInserts(TableClient table, int count, String prefix) {
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      table.insert(sample(prefix + (i % 50), String.format("%08d", i), i));
    }
    return count / seconds(start);
  }

  private static double pointReads(TableClient table, int count, Random random) {
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      int row = random.nextInt(SINGLE_OPS);
      table.get("single" + (row % 50), String.format("%08d", row));
    }
    return count / seconds(start);
  }

  private static double submitTransactions(TableClient table, int count, String prefix) {
    long start = System.nanoTime();
    for (int t = 0; t < count; t++) {
      List<TableOperation> operations = new ArrayList<>(100);
      for (int i = 0; i < 100; i++) {
        operations.add(TableOperation.insert(sample(prefix + t, String.format("%04d", i), i)));
      }
      table.submitTransaction(operations);
    }
    return count / seconds(start);
  }

  /** Writes entities in the store's format with large JDBC batches, 1,000 per partition. */
  private static void bulkLoad(
      DataSource dataSource, StoreSettings settings, String account, int count) {
    try (Store store = Store.open(settings, QueryLimits.SERVICE)) {
      long tableId = TableLookup.id(store.sql, account, "scan");
      Dialect dialect = store.dialect;
      long ticks = Ticks.now();
      for (int from = 0; from < count; from += 5000) {
        int start = from;
        int end = Math.min(count, from + 5000);
        store.sql.transaction(
            configuration -> {
              var sql = DSL.using(configuration);
              var insert =
                  sql.insertInto(
                          ENTITIES,
                          ENTITY_TABLE,
                          PARTITION_KEY,
                          ROW_KEY,
                          TICKS,
                          dialect.propertiesColumn())
                      .values(
                          DSL.val(tableId),
                          DSL.val(""),
                          DSL.val(""),
                          DSL.val(0L),
                          dialect.propertiesValue("{}"));
              var batch = sql.batch(insert);
              for (int i = start; i < end; i++) {
                String partition = String.format("p%05d", i / ROWS_PER_PARTITION);
                String row = String.format("r%05d", i % ROWS_PER_PARTITION);
                Map<String, PropertyValue> properties =
                    sample(partition, row, i % 1000).properties();
                batch =
                    batch.bind(
                        tableId,
                        partition,
                        row,
                        ticks,
                        dialect.propertiesBindValue(store.properties.encode(properties)));
              }
              batch.execute();
            });
      }
      if (dialect.sqlDialect() == org.jooq.SQLDialect.POSTGRES) {
        store.sql.execute("VACUUM ANALYZE trestle_entity");
      } else {
        store.sql.execute("ANALYZE");
      }
    }
  }

  /** Elapsed nanoseconds, matches and pages of a filtered scan followed to its end. */
  private static long[] fullScan(TableClient table, String filter) {
    long start = System.nanoTime();
    long matches = 0;
    long pages = 0;
    EntityQuery query = EntityQuery.filter(filter);
    while (true) {
      EntityPage page = table.query(query);
      pages++;
      matches += page.entities().size();
      if (page.next().isEmpty()) {
        return new long[] {System.nanoTime() - start, matches, pages};
      }
      query = query.withContinuation(page.next().get());
    }
  }

  private static double partitionScans(TableClient table, int partitions, Random random) {
    long entities = 0;
    long start = System.nanoTime();
    for (int i = 0; i < 50; i++) {
      String partition = String.format("p%05d", random.nextInt(partitions));
      EntityQuery query = EntityQuery.filter("PartitionKey eq '" + partition + "'");
      while (true) {
        EntityPage page = table.query(query);
        entities += page.entities().size();
        if (page.next().isEmpty()) {
          break;
        }
        query = query.withContinuation(page.next().get());
      }
    }
    return entities / seconds(start);
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
