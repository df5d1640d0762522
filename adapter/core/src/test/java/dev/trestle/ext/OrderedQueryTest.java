package dev.trestle.ext;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.Ordering;
import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableExtensions;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * {@link TableExtensions#queryOrderedBy}: against a plain Java sort of the same random entities
 * (duplicate values, missing properties, values of other types), whole and page by page.
 */
class OrderedQueryTest {
  private static final int ENTITIES = 240;

  /** Random values of the property V: few distinct ones per kind, so that many are equal. */
  private static PropertyValue randomValue(Random random) {
    return switch (random.nextInt(9)) {
      case 0 -> PropertyValue.of(random.nextInt(5) - 2);
      case 1 ->
          PropertyValue.of((long) random.nextInt(5) - 2 + (random.nextBoolean() ? 0 : 1L << 40));
      case 2 -> PropertyValue.of(random.nextInt(9) / 2.0 - 2);
      case 3 ->
          PropertyValue.of(
              new String[] {"a", "ab", "B", "\uFFFF", "\uD83D\uDE00", ""}[random.nextInt(6)]);
      case 4 -> PropertyValue.of(Instant.ofEpochSecond(1_700_000_000L + random.nextInt(4)));
      case 5 -> PropertyValue.of(random.nextBoolean());
      case 6 -> PropertyValue.of(new UUID(random.nextInt(3) - 1L, random.nextInt(3) - 1L));
      case 7 ->
          PropertyValue.of(new byte[] {(byte) (random.nextInt(3) * 127), (byte) random.nextInt(2)});
      default -> null; // the property is missing
    };
  }

  private static List<TableEntity> seed(TableService service, long seed) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    Random random = new Random(seed);
    List<TableEntity> all = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < ENTITIES / 4; r++) {
        TableEntity.Builder builder = TableEntity.builder("p" + p, String.format("r%03d", r));
        PropertyValue value = randomValue(random);
        if (value != null) {
          builder.put("V", value);
        }
        TableEntity entity = builder.put("N", r).build();
        batch.add(TableOperation.insert(entity));
        all.add(entity);
      }
      items.submitTransaction(batch);
    }
    return all;
  }

  /** The documented order, written independently of the implementation. */
  private static Comparator<TableEntity> reference(Ordering ordering) {
    String kind = kindOf(ordering.type());
    Comparator<TableEntity> byValue =
        (a, b) -> {
          Object x = comparable(a, ordering.property(), kind);
          Object y = comparable(b, ordering.property(), kind);
          return compareObjects(x, y);
        };
    Comparator<TableEntity> byKeys =
        Comparator.comparing(TableEntity::partitionKey).thenComparing(TableEntity::rowKey);
    Comparator<TableEntity> ordered = byValue.thenComparing(byKeys);
    if (ordering.descending()) {
      ordered = ordered.reversed();
    }
    Comparator<TableEntity> directed = ordered;
    return (a, b) -> {
      boolean aHas = comparable(a, ordering.property(), kind) != null;
      boolean bHas = comparable(b, ordering.property(), kind) != null;
      if (aHas != bHas) {
        return aHas ? -1 : 1;
      }
      return directed.compare(a, b);
    };
  }

  @SuppressWarnings("unchecked")
  private static int compareObjects(Object x, Object y) {
    if (x == null) {
      return 0;
    }
    if (x instanceof byte[] bx) {
      return Arrays.compareUnsigned(bx, (byte[]) y);
    }
    return ((Comparable<Object>) x).compareTo(y);
  }

  private static String kindOf(EdmType type) {
    return switch (type) {
      case INT32, INT64, DOUBLE -> "number";
      default -> type.name();
    };
  }

  private static Object comparable(TableEntity entity, String property, String kind) {
    PropertyValue value = entity.properties().get(property);
    if (value == null || !kindOf(value.type()).equals(kind)) {
      return null;
    }
    return switch (value) {
      case PropertyValue.Int32Value v -> BigDecimal.valueOf(v.value());
      case PropertyValue.Int64Value v -> BigDecimal.valueOf(v.value());
      case PropertyValue.DoubleValue v -> new BigDecimal(v.value());
      case PropertyValue.StringValue v -> v.value();
      case PropertyValue.DateTimeValue v -> v.value();
      case PropertyValue.BooleanValue v -> v.value();
      case PropertyValue.GuidValue v -> v.value().toString();
      case PropertyValue.BinaryValue v -> v.value();
    };
  }

  private static List<String> keys(List<TableEntity> entities) {
    return entities.stream().map(e -> e.partitionKey() + "/" + e.rowKey()).toList();
  }

  /** Every page of the ordered query, collected. */
  private static List<TableEntity> allPages(TableExtensions ext, EntityQuery query, Ordering o) {
    List<TableEntity> collected = new ArrayList<>();
    EntityPage page = ext.queryOrderedBy(query, o);
    collected.addAll(page.entities());
    while (page.next().isPresent()) {
      page = ext.queryOrderedBy(query.withContinuation(page.next().get()), o);
      collected.addAll(page.entities());
    }
    return collected;
  }

  private static List<String> expected(
      List<TableEntity> all, Predicate<TableEntity> filter, Ordering ordering) {
    return keys(all.stream().filter(filter).sorted(reference(ordering)).toList());
  }

  @DatabaseTest
  void ordersEveryKindBothWaysAsAJavaSortDoes(TableService service) {
    List<TableEntity> all = seed(service, 17);
    TableExtensions ext = service.tableClient("items").extensions();
    for (EdmType type : EdmType.values()) {
      for (boolean descending : new boolean[] {false, true}) {
        Ordering ordering = new Ordering("V", type, descending);

        assertThat(keys(ext.queryOrderedBy(EntityQuery.all(), ordering).entities()))
            .as(ordering.toString())
            .containsExactlyElementsOf(expected(all, e -> true, ordering));
      }
    }
  }

  @DatabaseTest
  void smallPagesCollectEveryMatchOnceInOrder(TableService service) {
    List<TableEntity> all = seed(service, 42);
    TableExtensions ext = service.tableClient("items").extensions();
    for (EdmType type : List.of(EdmType.INT32, EdmType.STRING, EdmType.BOOLEAN)) {
      for (boolean descending : new boolean[] {false, true}) {
        Ordering ordering = new Ordering("V", type, descending);
        EntityQuery query = EntityQuery.filter("PartitionKey ne 'p2' and N ge 3").withTop(7);

        List<TableEntity> collected = allPages(ext, query, ordering);

        assertThat(keys(collected))
            .as(ordering.toString())
            .doesNotHaveDuplicates()
            .containsExactlyElementsOf(
                expected(
                    all, e -> !e.partitionKey().equals("p2") && e.getInt32("N") >= 3, ordering));
      }
    }
  }

  @DatabaseTest
  void pagesOfOneResumeExactlyAmongManyEqualValues(TableService service) {
    service.createTable("same");
    TableClient same = service.tableClient("same");
    for (int r = 0; r < 30; r++) {
      same.insert(TableEntity.builder("p" + (r % 3), "r" + r).put("V", r % 2).build());
    }
    Ordering ordering = Ordering.descending("V", EdmType.INT64);

    List<TableEntity> collected =
        allPages(same.extensions(), EntityQuery.all().withTop(1), ordering);

    assertThat(keys(collected)).doesNotHaveDuplicates().hasSize(30);
    assertThat(collected.subList(0, 15)).allMatch(e -> e.getInt32("V") == 1);
    assertThat(keys(collected))
        .containsExactlyElementsOf(
            keys(
                collected.stream()
                    .sorted(
                        Comparator.comparing((TableEntity e) -> e.getInt32("V"))
                            .thenComparing(TableEntity::partitionKey)
                            .thenComparing(TableEntity::rowKey)
                            .reversed())
                    .toList()));
  }

  @DatabaseTest
  void ordersByTheKeysAndTheTimestamp(TableService service) {
    List<TableEntity> all = seed(service, 5);
    TableExtensions ext = service.tableClient("items").extensions();

    assertThat(
            keys(
                ext.queryOrderedBy(
                        EntityQuery.all().withTop(5), Ordering.descending("RowKey", EdmType.STRING))
                    .entities()))
        .containsExactly("p3/r059", "p2/r059", "p1/r059", "p0/r059", "p3/r058");
    assertThat(
            ext.queryOrderedBy(
                    EntityQuery.all().withSelect(List.of("N")),
                    Ordering.ascending("Timestamp", EdmType.DATE_TIME))
                .entities())
        .hasSize(all.size())
        .isSortedAccordingTo(Comparator.comparing(TableEntity::timestamp));
  }

  @DatabaseTest
  void refusesAWrongTypeForAKeyAndAForeignToken(TableService service) {
    seed(service, 1);
    TableExtensions ext = service.tableClient("items").extensions();
    Ordering numbers = Ordering.ascending("V", EdmType.INT32);

    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> ext.queryOrderedBy(EntityQuery.all(), Ordering.ascending("RowKey", EdmType.INT32)));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () ->
            ext.queryOrderedBy(
                EntityQuery.all().withContinuation(new EntityQuery.Continuation("1!AHA", "1!AHI")),
                numbers));
    EntityPage strings =
        ext.queryOrderedBy(
            EntityQuery.filter("V ge ''").withTop(1), Ordering.ascending("V", EdmType.STRING));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () ->
            ext.queryOrderedBy(
                EntityQuery.all().withContinuation(strings.next().orElseThrow()), numbers));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> ext.queryOrderedBy(EntityQuery.filter("V eq"), numbers));
    assertFails(
        TableErrorCode.TABLE_NOT_FOUND,
        () ->
            service.tableClient("absent").extensions().queryOrderedBy(EntityQuery.all(), numbers));
  }

  @DatabaseTest
  void aStandardQueryIsUnchanged(TableService service) {
    List<TableEntity> all = seed(service, 3);

    assertThat(keys(service.tableClient("items").query(EntityQuery.all()).entities()))
        .containsExactlyElementsOf(
            keys(
                all.stream()
                    .sorted(
                        Comparator.comparing(TableEntity::partitionKey)
                            .thenComparing(TableEntity::rowKey))
                    .toList()));
  }
}
