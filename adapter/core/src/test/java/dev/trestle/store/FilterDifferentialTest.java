package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.IndexedProperty;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.filter.FilterEvaluator;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.RandomEntities;
import dev.trestle.testing.RandomFilters;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.TestReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Random entities and random filters: the SQL translation must select exactly the entities the
 * reference evaluator selects, in key order, also where PostgreSQL's property index serves the
 * top-level equalities. Reproduce a failure with {@code -Dtrestle.seed=<seed from the report>}.
 */
class FilterDifferentialTest {
  private static final Logger LOG = LoggerFactory.getLogger(FilterDifferentialTest.class);
  private static final int ENTITIES = Integer.getInteger("trestle.differential.entities", 500);
  private static final int FILTERS = Integer.getInteger("trestle.differential.filters", 2500);

  @DatabaseTest({
    TestDatabase.Kind.H2,
    TestDatabase.Kind.POSTGRESQL,
    TestDatabase.Kind.POSTGRESQL_PROPERTY_INDEX,
    TestDatabase.Kind.POSTGRESQL_SCALAR_STORE
  })
  void sqlSelectsExactlyWhatTheReferenceEvaluatorSelects(
      TableService service, TestDatabase database, TestReporter reporter) {
    compare(service, database, reporter, null, FILTERS);
  }

  /**
   * The same with an index declared on every property the filters compare, for every kind of value
   * (and on Timestamp): the filters then read through the indexes' candidates.
   */
  @DatabaseTest({TestDatabase.Kind.H2, TestDatabase.Kind.POSTGRESQL})
  void withDeclaredIndexesSqlSelectsExactlyWhatTheReferenceEvaluatorSelects(
      TableService service, TestDatabase database, TestReporter reporter) {
    // half as many filters: each one also checks the candidates' conditions
    compare(service, database, reporter, FilterDifferentialTest::declareIndexes, FILTERS / 2);
  }

  /**
   * The same with indexes over several properties: a filter comparing an index's first property
   * and, under {@code and}, its further ones reads through both conditions at once.
   */
  @DatabaseTest({TestDatabase.Kind.H2, TestDatabase.Kind.POSTGRESQL})
  void withIndexesOverSeveralPropertiesSqlSelectsExactlyWhatTheReferenceEvaluatorSelects(
      TableService service, TestDatabase database, TestReporter reporter) {
    compare(
        service,
        database,
        reporter,
        FilterDifferentialTest::declareIndexesOverSeveral,
        FILTERS / 4);
  }

  private static void declareIndexesOverSeveral(TableService service) {
    List<List<IndexedProperty>> indexes =
        List.of(
            List.of(of("Str", EdmType.STRING), of("Int", EdmType.INT32)),
            List.of(of("Int", EdmType.INT32), of("Dbl", EdmType.DOUBLE), of("Str", EdmType.STRING)),
            List.of(of("Bool", EdmType.BOOLEAN), of("Long", EdmType.INT64)),
            List.of(of("When", EdmType.DATE_TIME), of("Timestamp", EdmType.DATE_TIME)),
            List.of(of("Id", EdmType.GUID), of("Bin", EdmType.BINARY), of("Mixed", EdmType.INT32)),
            List.of(
                of("Mixed", EdmType.STRING),
                of("Rare", EdmType.INT32),
                of("When", EdmType.DATE_TIME)),
            List.of(of("Rare", EdmType.STRING), of("Absent", EdmType.STRING)),
            List.of(of("Timestamp", EdmType.DATE_TIME), of("Str", EdmType.STRING)));
    for (List<IndexedProperty> index : indexes) {
      service.createIndex("differential", index);
    }
    // and one over a single property that another index also holds further on
    service.createIndex("differential", "Dbl", EdmType.STRING);
  }

  private static IndexedProperty of(String name, EdmType type) {
    return new IndexedProperty(name, type);
  }

  private static final List<EdmType> KINDS =
      List.of(
          EdmType.STRING,
          EdmType.INT32,
          EdmType.BOOLEAN,
          EdmType.DATE_TIME,
          EdmType.GUID,
          EdmType.BINARY);

  private static void declareIndexes(TableService service) {
    for (String property : List.of("Str", "Int", "Long", "Dbl", "Bool", "When", "Id", "Bin")) {
      for (EdmType type : KINDS) {
        service.createIndex("differential", property, type);
      }
    }
    for (String property : List.of("Mixed", "Rare", "Absent")) {
      for (EdmType type : KINDS) {
        service.createIndex("differential", property, type);
      }
    }
    service.createIndex("differential", "Timestamp", EdmType.DATE_TIME);
  }

  private static void compare(
      TableService service,
      TestDatabase database,
      TestReporter reporter,
      Consumer<TableService> declare,
      int filters) {
    boolean indexed = declare != null;
    long seed = Long.getLong("trestle.seed", System.nanoTime());
    reporter.publishEntry("seed", Long.toString(seed));
    LOG.info(
        "{}{}: differential seed {} ({} entities, {} filters)",
        database.kind().displayName(),
        indexed ? " with declared indexes" : "",
        seed,
        ENTITIES,
        filters);
    Random random = new Random(seed);
    service.createTable("differential");
    TableClient table = service.tableClient("differential");
    List<TableEntity> stored = new ArrayList<>();
    for (TableEntity entity : RandomEntities.generate(random, ENTITIES)) {
      stored.add(table.insert(entity));
    }
    stored.sort(Comparator.comparing(TableEntity::partitionKey).thenComparing(TableEntity::rowKey));
    if (indexed) {
      declare.accept(service);
    }

    int compared = 0;
    int rejected = 0;
    for (int i = 0; i < filters; i++) {
      String filter = RandomFilters.generate(random, stored);
      FilterExpression expression;
      try {
        expression = FilterParser.parse(filter);
      } catch (TableException e) {
        rejected++; // the generator may exceed a limit on purpose; the parser is tested elsewhere
        continue;
      }
      List<String> expected =
          stored.stream()
              .filter(e -> FilterEvaluator.matches(expression, e))
              .map(FilterDifferentialTest::key)
              .toList();
      List<String> actual = queryAll(table, filter);
      assertThat(actual)
          .as("seed %d, filter #%d: %s", seed, i, filter)
          .containsExactlyElementsOf(expected);
      compared++;
    }
    reporter.publishEntry("filters compared", Integer.toString(compared));
    LOG.info(
        "{}{}: differential seed {}: {} filters compared, 0 mismatches, {} rejected by the parser",
        database.kind().displayName(),
        indexed ? " with declared indexes" : "",
        seed,
        compared,
        rejected);
    reporter.publishEntry("filters rejected by the parser", Integer.toString(rejected));
    assertThat(compared).isGreaterThan(filters / 2);
  }

  private static List<String> queryAll(TableClient table, String filter) {
    List<String> keys = new ArrayList<>();
    EntityQuery query = EntityQuery.filter(filter);
    while (true) {
      EntityPage page = table.query(query);
      page.entities().forEach(e -> keys.add(key(e)));
      if (page.next().isEmpty()) {
        return keys;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  private static String key(TableEntity entity) {
    return entity.partitionKey() + " / " + entity.rowKey();
  }
}
