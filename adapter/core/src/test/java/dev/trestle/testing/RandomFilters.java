package dev.trestle.testing;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.model.PropertyNames;
import dev.trestle.model.TableLimits;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Seeded random {@code $filter} strings over a set of entities: every operator, and/or/not with and
 * without parentheses, literals on either side, every literal spelling, system properties,
 * properties some entities lack, literals of the wrong type, edge values, and at most 15
 * comparisons. Literals are mostly taken from the entities' own values so that filters select some
 * entities and not others. A third of the filters also require a property, at the top level, to
 * equal a value an entity holds.
 */
public final class RandomFilters {
  private RandomFilters() {}

  private static final List<String> OPERATORS = List.of("eq", "ne", "gt", "ge", "lt", "le");
  private static final Set<String> KEYWORDS =
      Set.of("and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "true", "false", "NaN", "INF");
  private static final String ABSENT = "Absent";
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);

  public static String generate(Random random, Collection<TableEntity> entities) {
    Map<String, List<PropertyValue>> values = valuesByProperty(entities);
    List<String> properties = new ArrayList<>(values.keySet());
    properties.add(ABSENT);
    int comparisons =
        1 + random.nextInt(random.nextInt(4) == 0 ? TableLimits.MAX_FILTER_COMPARISONS : 5);
    return new Generator(random, values, properties).filter(comparisons);
  }

  // Every value each property has among the entities, system properties included.
  private static Map<String, List<PropertyValue>> valuesByProperty(
      Collection<TableEntity> entities) {
    Map<String, List<PropertyValue>> values = new LinkedHashMap<>();
    for (TableEntity entity : entities) {
      values
          .computeIfAbsent("PartitionKey", k -> new ArrayList<>())
          .add(PropertyValue.of(entity.partitionKey()));
      values
          .computeIfAbsent("RowKey", k -> new ArrayList<>())
          .add(PropertyValue.of(entity.rowKey()));
      if (entity.timestamp() != null) {
        values
            .computeIfAbsent("Timestamp", k -> new ArrayList<>())
            .add(PropertyValue.of(entity.timestamp()));
      }
      entity
          .properties()
          .forEach(
              (name, value) -> {
                if (PropertyNames.isValid(name) && !KEYWORDS.contains(name)) {
                  values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
                }
              });
    }
    return values;
  }

  private record Generator(
      Random random, Map<String, List<PropertyValue>> values, List<String> properties) {

    // A third of the filters require, at the top level, a property to equal a value some entity
    // holds, mostly
    // of a type with one stored form: the equalities a property index serves.
    String filter(int comparisons) {
      if (comparisons == 1 || random.nextInt(3) != 0) {
        return expression(comparisons);
      }
      String equality = equality();
      String rest = expression(comparisons - 1);
      rest = random.nextInt(4) == 0 ? rest : "(" + rest + ")";
      return random.nextBoolean() ? equality + " and " + rest : rest + " and " + equality;
    }

    private String equality() {
      String property = RandomValues.pick(random, properties);
      List<PropertyValue> known = values.getOrDefault(property, List.of());
      List<PropertyValue> exact = known.stream().filter(Generator::hasOneStoredForm).toList();
      PropertyValue literal =
          !exact.isEmpty() && random.nextInt(5) != 0
              ? RandomValues.pick(random, exact)
              : literalFor(known);
      if (literal instanceof PropertyValue.BooleanValue b && b.value() && random.nextInt(4) == 0) {
        return property; // bare boolean property: "eq true"
      }
      String text = format(literal);
      return random.nextInt(6) == 0 ? text + " eq " + property : property + " eq " + text;
    }

    private static boolean hasOneStoredForm(PropertyValue value) {
      return !(value instanceof PropertyValue.Int32Value)
          && !(value instanceof PropertyValue.DoubleValue);
    }

    String expression(int comparisons) {
      if (comparisons == 1) {
        String comparison = comparison();
        return random.nextInt(8) == 0 ? "not " + comparison : maybeNegated(comparison);
      }
      int left = 1 + random.nextInt(comparisons - 1);
      String operator = random.nextBoolean() ? " and " : " or ";
      String expression =
          group(expression(left)) + operator + group(expression(comparisons - left));
      return maybeNegated(expression);
    }

    // Parentheses at random: where they are missing, precedence decides.
    private String group(String expression) {
      return random.nextBoolean() ? "(" + expression + ")" : expression;
    }

    private String maybeNegated(String expression) {
      return random.nextInt(5) == 0 ? "not (" + expression + ")" : expression;
    }

    private String comparison() {
      String property = RandomValues.pick(random, properties);
      List<PropertyValue> known = values.getOrDefault(property, List.of());
      PropertyValue literal = literalFor(known);
      if (literal instanceof PropertyValue.BooleanValue && random.nextInt(8) == 0) {
        return property; // bare boolean property: "eq true"
      }
      String operator = RandomValues.pick(random, OPERATORS);
      String text = format(literal);
      return random.nextInt(6) == 0
          ? text + " " + operator + " " + property
          : property + " " + operator + " " + text;
    }

    // Mostly a value the property really has; sometimes a fresh value of the same or of another
    // type.
    private PropertyValue literalFor(List<PropertyValue> known) {
      int roll = random.nextInt(10);
      if (!known.isEmpty() && roll < 6) {
        return RandomValues.pick(random, known);
      }
      if (!known.isEmpty() && roll < 8) {
        return RandomValues.value(random, RandomValues.pick(random, known).type());
      }
      return RandomValues.value(random, RandomValues.type(random));
    }

    private String format(PropertyValue literal) {
      return switch (literal) {
        case PropertyValue.StringValue s -> "'" + s.value().replace("'", "''") + "'";
        case PropertyValue.Int32Value i -> Integer.toString(i.value());
        case PropertyValue.Int64Value l -> l.value() + (random.nextInt(4) == 0 ? "l" : "L");
        case PropertyValue.DoubleValue d -> formatDouble(d.value());
        case PropertyValue.BooleanValue b -> Boolean.toString(b.value());
        case PropertyValue.DateTimeValue t -> "datetime'" + DATE_TIME.format(t.value()) + "'";
        case PropertyValue.GuidValue g ->
            "guid'"
                + (random.nextBoolean()
                    ? g.value().toString()
                    : g.value().toString().toUpperCase(java.util.Locale.ROOT))
                + "'";
        case PropertyValue.BinaryValue b ->
            (random.nextBoolean() ? "X'" : "binary'") + HexFormat.of().formatHex(b.value()) + "'";
      };
    }

    private String formatDouble(double d) {
      if (Double.isNaN(d)) {
        return "NaN";
      }
      if (Double.isInfinite(d)) {
        return d > 0 ? "INF" : "-INF";
      }
      String text =
          Double.toString(d); // always has a '.' or an exponent, so it never reads as an integer
      return random.nextInt(4) == 0 ? text + "d" : text;
    }
  }
}
