package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.SchemaMigrator;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.PropertyIndex;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.store.internal.database.TableLookup;
import dev.trestle.store.internal.filter.FilterTranslator;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * PostgreSQL only: the optional GIN index on the properties (sql/postgresql/property-index.sql) is
 * found in the store's schema, and while it exists a selective equality filter's page cursor reads
 * through it; without it the walk has no containment test.
 */
class PostgresPropertyIndexTest {
  private static final String FILTER = "Category eq 'c7' and n ge 0";
  private static final int ENTITIES = 4000;
  // About a kilobyte per entity, as in many real tables: on a few thousand tiny rows, walking them
  // all is
  // cheaper than any index, and PostgreSQL rightly says so.
  private static final String DESCRIPTION = "0123456789abcdef".repeat(64);

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_PROPERTY_INDEX)
  void aSelectiveEqualityIsReadThroughTheGinIndexOnPostgresqlWithThePropertyIndex(
      TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (Store store = Store.open(settings(database, account), QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings(database, account))) {
      fill(service);
      store.sql.execute("ANALYZE trestle_entity");
      CursorScan scan = cursorScan(store, account, FILTER);

      Condition resumed = DSL.row(Schema.PARTITION_KEY, Schema.ROW_KEY).gt("p05", "r050");
      for (Condition resume : java.util.Arrays.asList(null, resumed)) {
        String plan =
            store.inTransaction(
                sql -> {
                  scan.planFor(sql);
                  return explainCursor(sql, scan.walkQuery(sql, resume));
                });
        assertThat(scan.walkQuery(store.sql, resume).getSQL()).contains("@>");
        assertThat(plan)
            .contains("Bitmap Index Scan on trestle_entity_properties_gin")
            .containsPattern("Index Cond: \\(.*properties @> ");
      }

      EntityPage page = scan.page(1000, null).toEntityPage(null);
      assertThat(page.entities())
          .extracting(e -> (Integer) e.properties().get("n").value())
          .containsExactlyElementsOf(
              IntStream.range(0, ENTITIES).filter(i -> i % 50 == 7).boxed().toList());
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_PROPERTY_INDEX)
  void pagesReadThroughTheGinIndexResumeWhereTheyStoppedOnPostgresqlWithThePropertyIndex(
      TestDatabase database) {
    String account = TestDatabase.newAccount();
    // No time left after the first chunk, and short pages: every page ends early and the next one
    // resumes.
    QueryLimits limits = new QueryLimits(Duration.ZERO, 3, 5);
    try (TableService service = SqlTableService.open(settings(database, account), limits)) {
      fill(service);
      DSL.using(database.dataSource(), SQLDialect.POSTGRES).execute("ANALYZE trestle_entity");
      List<Integer> values = new ArrayList<>();
      int pages = 0;
      EntityQuery query = EntityQuery.filter(FILTER).withTop(7);
      while (true) {
        EntityPage page = service.tableClient("goods").query(query);
        pages++;
        page.entities().forEach(e -> values.add((Integer) e.properties().get("n").value()));
        if (page.next().isEmpty()) {
          break;
        }
        query = query.withContinuation(page.next().get());
      }
      assertThat(values)
          .containsExactlyElementsOf(
              IntStream.range(0, ENTITIES).filter(i -> i % 50 == 7).boxed().toList());
      assertThat(pages).isGreaterThan(ENTITIES / 50 / 7);
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void withoutThePropertyIndexTheWalkHasNoContainmentTestOnPostgresql(TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (Store store = Store.open(settings(database, account), QueryLimits.SERVICE);
        TableService service = SqlTableService.open(settings(database, account))) {
      fill(service);
      CursorScan scan = cursorScan(store, account, FILTER);

      assertThat(store.propertyIndex.present()).isFalse();
      assertThat(scan.walkQuery(store.sql, null).getSQL()).doesNotContain("@>");
      assertThat(scan.page(1000, null).entities()).hasSize(ENTITIES / 50);
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void anIndexCreatedOrDroppedWhileRunningIsNoticedInTheStoresOwnSchemaOnPostgresql(
      TestDatabase database) throws Exception {
    String schema =
        "trestle_t_"
            + System.currentTimeMillis()
            + "_gin"
            + Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE), 36);
    try (HikariDataSource dataSource = inNewSchema(database, schema)) {
      SchemaMigrator.migrate(dataSource);
      DSLContext sql = DSL.using(dataSource, SQLDialect.POSTGRES);
      Dialect dialect = new PostgresDatabaseType().dialect();
      PropertyIndex index =
          new GinPropertyIndex(
              sql,
              dialect,
              new PropertyCodec(dialect::encodeText, dialect::decodeText),
              Duration.ZERO);
      FilterExpression filter = FilterParser.parse(FILTER);

      assertThat(index.present()).as("another schema's index does not count").isFalse();
      assertThat(index.candidates(filter)).isNull();

      sql.execute("CREATE INDEX other_kind ON trestle_entity (properties)");
      sql.execute(
          "CREATE INDEX partial ON trestle_entity USING gin (properties) WHERE table_id = 1");
      sql.execute(
          "CREATE INDEX expression ON trestle_entity USING gin ((properties -> 'Category'))");
      assertThat(index.present())
          .as("only a GIN index on the whole column serves every filter")
          .isFalse();

      sql.execute(
          "CREATE INDEX trestle_entity_properties_gin ON trestle_entity USING gin (properties jsonb_path_ops)");
      assertThat(index.present()).isTrue();
      assertThat(index.candidates(filter).toString())
          .contains("@>")
          .contains("{\"Category\":[\"c7\"]}");
      assertThat(index.candidates(FilterParser.parse("n ge 0 or Category eq 'c7'"))).isNull();

      sql.execute("DROP INDEX trestle_entity_properties_gin");
      assertThat(index.present()).isFalse();

      sql.execute("CREATE INDEX default_operator_class ON trestle_entity USING gin (properties)");
      assertThat(index.present()).as("jsonb_ops also has @>").isTrue();
    } finally {
      try (var connection = database.dataSource().getConnection();
          var statement = connection.createStatement()) {
        statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    }
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_PROPERTY_INDEX)
  void theIndexIsLookedUpOnceAndThenOnlyAfterTheRecheckIntervalOnPostgresqlWithThePropertyIndex(
      TestDatabase database) {
    DSLContext sql = DSL.using(database.dataSource(), SQLDialect.POSTGRES);
    Dialect dialect = new PostgresDatabaseType().dialect();
    List<String> statements = new ArrayList<>();
    sql.configuration()
        .set(ExecuteListener.onExecuteStart(context -> statements.add(context.sql())));
    PropertyIndex index =
        new GinPropertyIndex(
            sql,
            dialect,
            new PropertyCodec(dialect::encodeText, dialect::decodeText),
            Duration.ofHours(1));
    for (int i = 0; i < 5; i++) {
      assertThat(index.present()).isTrue();
    }
    assertThat(statements).hasSize(1);
  }

  private static void fill(TableService service) {
    service.createTable("goods");
    TableClient table = service.tableClient("goods");
    for (int p = 0; p < ENTITIES / 100; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < 100; r++) {
        int n = p * 100 + r;
        batch.add(
            TableOperation.insert(
                TableEntity.builder(String.format("p%02d", p), String.format("r%03d", r))
                    .put("Category", "c" + n % 50)
                    .put("n", n)
                    .put("Description", DESCRIPTION)
                    .build()));
      }
      table.submitTransaction(batch);
    }
  }

  private static StoreSettings settings(TestDatabase database, String account) {
    return StoreSettings.onDataSource(database.dataSource(), account);
  }

  private static CursorScan cursorScan(Store store, String account, String filter) {
    FilterExpression expression = FilterParser.parse(filter);
    FilterTranslator translator = new FilterTranslator(store.dialect);
    long tableId = TableLookup.id(store.sql, account, "goods");
    return new CursorScan(
        new ScanRequest(
            store,
            QueryLimits.SERVICE,
            tableId,
            translator.entities(expression),
            translator.keyRange(expression),
            store.propertyIndex.candidates(expression),
            null));
  }

  /** The plan of the query as a declared cursor, which is how the scan runs it. */
  private static String explainCursor(DSLContext sql, ResultQuery<?> query) {
    return sql
        .fetch(
            "EXPLAIN DECLARE explained NO SCROLL CURSOR FOR " + query.getSQL(),
            query.getBindValues().toArray())
        .stream()
        .map(row -> row.get(0, String.class))
        .collect(Collectors.joining("\n"));
  }

  private static HikariDataSource inNewSchema(TestDatabase database, String schema)
      throws Exception {
    try (var connection = database.dataSource().getConnection();
        var statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + schema);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database.jdbcUrl());
    config.setUsername(database.username());
    config.setPassword(database.password());
    config.setMaximumPoolSize(2);
    config.setSchema(schema);
    return new HikariDataSource(config);
  }
}
