package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.EntityQuery.KeyRange;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.util.ArrayList;
import java.util.List;

/**
 * A query limited to a key range (a table SAS's spk/srk/epk/erk) is narrowed in the store: pages
 * fill with entities inside the range although others sort before and after it, and continuations
 * walk only the range.
 */
class EntityQueryKeyRangeTest {

  private static List<String> allKeys(TableService service) {
    service.createTable("ranged");
    TableClient table = service.tableClient("ranged");
    List<String> keys = new ArrayList<>();
    for (int p = 0; p < 5; p++) {
      for (int r = 0; r < 10; r++) {
        table.insert(TableEntity.builder("p" + p, "r" + r).put("N", r).build());
        keys.add("p" + p + "/r" + r);
      }
    }
    return keys;
  }

  /** Every page, and the page sizes, walking the continuations. */
  private static List<String> read(TableClient table, EntityQuery query, List<Integer> pageSizes) {
    List<String> keys = new ArrayList<>();
    EntityQuery next = query;
    while (true) {
      EntityPage page = table.query(next);
      pageSizes.add(page.entities().size());
      page.entities().forEach(e -> keys.add(e.partitionKey() + "/" + e.rowKey()));
      if (page.next().isEmpty()) {
        return keys;
      }
      next = query.withContinuation(page.next().get());
    }
  }

  private static List<String> inside(List<String> keys, KeyRange range) {
    return keys.stream()
        .filter(
            k -> range.contains(k.substring(0, k.indexOf('/')), k.substring(k.indexOf('/') + 1)))
        .toList();
  }

  @DatabaseTest
  void pagesFillWithEntitiesInsideTheRangeAndContinuationsStayInIt(TableService service) {
    List<String> all = allKeys(service);
    KeyRange range = new KeyRange("p1", "r5", "p3", "r2");
    List<Integer> pageSizes = new ArrayList<>();
    List<String> read =
        read(
            service.tableClient("ranged"),
            EntityQuery.all().withTop(4).withKeyRange(range),
            pageSizes);
    assertThat(read)
        .hasSize(18)
        .containsExactlyElementsOf(inside(all, range))
        .startsWith("p1/r5")
        .endsWith("p3/r2");
    assertThat(pageSizes).containsExactly(4, 4, 4, 4, 2);
  }

  @DatabaseTest
  void theRangeAndTheFilterBothApply(TableService service) {
    allKeys(service);
    List<String> read =
        read(
            service.tableClient("ranged"),
            EntityQuery.filter("N ge 8").withKeyRange(new KeyRange("p1", "r5", "p3", "r2")),
            new ArrayList<>());
    assertThat(read).containsExactly("p1/r8", "p1/r9", "p2/r8", "p2/r9");
  }

  @DatabaseTest
  void openEndsAndWholePartitions(TableService service) {
    List<String> all = allKeys(service);
    TableClient table = service.tableClient("ranged");
    for (KeyRange range :
        List.of(
            new KeyRange("p3", null, null, null),
            new KeyRange(null, null, "p0", "r1"),
            new KeyRange("p1", null, "p2", null),
            new KeyRange("p2", "r3", "p2", "r3"))) {
      assertThat(read(table, EntityQuery.all().withTop(3).withKeyRange(range), new ArrayList<>()))
          .as(range.toString())
          .isNotEmpty()
          .containsExactlyElementsOf(inside(all, range));
    }
  }

  /** Keys compare by UTF-16 code unit: a supplementary character sorts before U+E000. */
  @DatabaseTest
  void keysCompareAsTheServiceOrdersThem(TableService service) {
    service.createTable("unicode");
    TableClient table = service.tableClient("unicode");
    table.insert(TableEntity.builder("\uD83D\uDE00", "r").build());
    table.insert(TableEntity.builder("\uF000", "r").build());
    List<String> read =
        read(
            table,
            EntityQuery.all().withKeyRange(new KeyRange("\uE000", null, null, null)),
            new ArrayList<>());
    assertThat(read).containsExactly("\uF000/r");
  }
}
