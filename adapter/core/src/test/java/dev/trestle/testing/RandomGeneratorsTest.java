package dev.trestle.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.filter.FilterEvaluator;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.model.EntityValidator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The generators the differential tests rely on: deterministic, valid, and covering what they
 * promise.
 */
class RandomGeneratorsTest {

  @Test
  void sameSeedGivesSameEntitiesAndFilters() {
    List<TableEntity> a = RandomEntities.generate(new Random(42), 200);
    List<TableEntity> b = RandomEntities.generate(new Random(42), 200);
    assertThat(a).isEqualTo(b);
    Random r1 = new Random(7);
    Random r2 = new Random(7);
    for (int i = 0; i < 50; i++) {
      assertThat(RandomFilters.generate(r1, a)).isEqualTo(RandomFilters.generate(r2, b));
    }
  }

  @Test
  void entitiesHaveUniqueValidKeysAllTypesMissingAndMixedProperties() {
    List<TableEntity> entities = RandomEntities.generate(new Random(1), 2000);
    assertThat(entities).hasSize(2000);
    Set<String> keys = new HashSet<>();
    Set<EdmType> types = EnumSet.noneOf(EdmType.class);
    Map<String, Set<EdmType>> typesByName = new HashMap<>();
    Map<String, Integer> presence = new HashMap<>();
    for (TableEntity e : entities) {
      EntityValidator.validateForWrite(e);
      assertThat(keys.add(e.partitionKey() + "\u0000" + e.rowKey())).isTrue();
      e.properties()
          .forEach(
              (name, value) -> {
                types.add(value.type());
                typesByName
                    .computeIfAbsent(name, n -> EnumSet.noneOf(EdmType.class))
                    .add(value.type());
                presence.merge(name, 1, Integer::sum);
              });
    }
    assertThat(types).containsExactlyInAnyOrder(EdmType.values());
    assertThat(typesByName.get("Mixed")).hasSize(EdmType.values().length);
    assertThat(typesByName.get("Int")).contains(EdmType.INT32).hasSizeGreaterThan(1);
    assertThat(presence.values())
        .allSatisfy(count -> assertThat(count).isLessThan(entities.size()));
  }

  @Test
  void largeCountsDoNotRunOutOfKeys() {
    assertThat(RandomEntities.generate(new Random(3), 50_000)).hasSize(50_000);
  }

  @Test
  void filtersParseAndCoverOperatorsTypesAndLogic() {
    List<TableEntity> entities = RandomEntities.generate(new Random(2), 300);
    Random random = new Random(5);
    Set<FilterExpression.ComparisonOperator> operators =
        EnumSet.noneOf(FilterExpression.ComparisonOperator.class);
    Set<EdmType> literalTypes = EnumSet.noneOf(EdmType.class);
    Set<Class<?>> nodes = new HashSet<>();
    Set<String> properties = new HashSet<>();
    int selective = 0;
    int filters = 2000;
    for (int i = 0; i < filters; i++) {
      String filter = RandomFilters.generate(random, entities);
      FilterExpression parsed = FilterParser.parse(filter);
      walk(parsed, operators, literalTypes, nodes, properties);
      long matching = entities.stream().filter(e -> FilterEvaluator.matches(parsed, e)).count();
      if (matching > 0 && matching < entities.size()) {
        selective++;
      }
    }
    assertThat(operators).containsExactlyInAnyOrder(FilterExpression.ComparisonOperator.values());
    assertThat(literalTypes).containsExactlyInAnyOrder(EdmType.values());
    assertThat(nodes)
        .contains(
            FilterExpression.And.class, FilterExpression.Or.class, FilterExpression.Not.class);
    assertThat(properties).contains("PartitionKey", "RowKey", "Absent", "Mixed", "Rare");
    assertThat(selective).isGreaterThan(filters / 4);
  }

  @Test
  void manyFiltersRequireAValueWithOneStoredFormAtTheTopLevel() {
    List<TableEntity> entities = RandomEntities.generate(new Random(8), 300);
    Random random = new Random(9);
    Set<EdmType> types = EnumSet.noneOf(EdmType.class);
    int filters = 2000;
    int withEquality = 0;
    for (int i = 0; i < filters; i++) {
      List<EdmType> required =
          topLevelEqualityTypes(FilterParser.parse(RandomFilters.generate(random, entities)));
      types.addAll(required);
      if (!required.isEmpty()) {
        withEquality++;
      }
    }
    assertThat(types)
        .contains(
            EdmType.STRING,
            EdmType.GUID,
            EdmType.BINARY,
            EdmType.BOOLEAN,
            EdmType.INT64,
            EdmType.DATE_TIME);
    assertThat(withEquality).isGreaterThan(filters / 5);
  }

  // The types of the literals of the top-level eq comparisons of user properties, other than Int32
  // and Double.
  private static List<EdmType> topLevelEqualityTypes(FilterExpression e) {
    return switch (e) {
      case FilterExpression.And and ->
          java.util.stream.Stream.concat(
                  topLevelEqualityTypes(and.left()).stream(),
                  topLevelEqualityTypes(and.right()).stream())
              .toList();
      case FilterExpression.Comparison c
          when c.operator() == FilterExpression.ComparisonOperator.EQ
              && !List.of("PartitionKey", "RowKey", "Timestamp").contains(c.property())
              && c.literal().type() != EdmType.INT32
              && c.literal().type() != EdmType.DOUBLE ->
          List.of(c.literal().type());
      default -> List.of();
    };
  }

  @Test
  void filtersUseTimestampsWhenEntitiesHaveThem() {
    List<TableEntity> stored =
        RandomEntities.generate(new Random(4), 20).stream()
            .map(
                e ->
                    e.toBuilder()
                        .timestamp(java.time.Instant.parse("2024-05-06T07:08:09.1234567Z"))
                        .build())
            .toList();
    Random random = new Random(6);
    boolean sawTimestamp =
        IntStream.range(0, 500)
            .mapToObj(i -> RandomFilters.generate(random, stored))
            .anyMatch(f -> f.contains("Timestamp"));
    assertThat(sawTimestamp).isTrue();
  }

  private static void walk(
      FilterExpression e,
      Set<FilterExpression.ComparisonOperator> operators,
      Set<EdmType> types,
      Set<Class<?>> nodes,
      Set<String> properties) {
    nodes.add(e.getClass());
    switch (e) {
      case FilterExpression.And and -> {
        walk(and.left(), operators, types, nodes, properties);
        walk(and.right(), operators, types, nodes, properties);
      }
      case FilterExpression.Or or -> {
        walk(or.left(), operators, types, nodes, properties);
        walk(or.right(), operators, types, nodes, properties);
      }
      case FilterExpression.Not not -> walk(not.operand(), operators, types, nodes, properties);
      case FilterExpression.Constant constant -> {}
      case FilterExpression.Comparison c -> {
        operators.add(c.operator());
        PropertyValue literal = c.literal();
        types.add(literal.type());
        properties.add(c.property());
      }
      case FilterExpression.TextComparison t -> properties.add(t.property());
    }
  }
}
