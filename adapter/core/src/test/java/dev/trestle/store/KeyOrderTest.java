package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Keys are ordered by UTF-16 code units, as Azure (.NET ordinal comparison) orders them. */
class KeyOrderTest {
  // In UTF-16 order a supplementary character (surrogates D800-DFFF) sorts before U+E000-U+FFFF; in
  // code-point
  // (and UTF-8 byte) order it sorts after them.
  static final List<String> KEYS =
      List.of(
          "",
          "A",
          "B",
          "Z",
          "a",
          "aa",
          "ab",
          "b",
          "z",
          "~",
          "\u00e9",
          "\u00ff",
          "\u0100",
          "\u4e00",
          "\uD800\uDC00",
          "\uD83D\uDE00",
          "\uDBFF\uDFFF",
          "\uE000",
          "\uF8FF",
          "\uFFFD",
          "\uFFFF");

  private static List<String> shuffled() {
    List<String> keys = new ArrayList<>(KEYS);
    Collections.shuffle(keys, new java.util.Random(7));
    return keys;
  }

  @DatabaseTest
  void rowKeysComeBackInUtf16Order(TableService service) {
    service.createTable("keys");
    TableClient table = service.tableClient("keys");
    for (String key : shuffled()) {
      table.insert(TableEntity.builder("p", key).build());
    }
    List<String> rowKeys =
        table.query(EntityQuery.all()).entities().stream().map(TableEntity::rowKey).toList();
    assertThat(rowKeys).containsExactlyElementsOf(KEYS);
    assertThat(KEYS).isSortedAccordingTo(String::compareTo);
  }

  @DatabaseTest
  void partitionKeysComeBackInUtf16Order(TableService service) {
    service.createTable("keys");
    TableClient table = service.tableClient("keys");
    for (String key : shuffled()) {
      table.insert(TableEntity.builder(key, "r").build());
    }
    List<String> partitionKeys =
        table.query(EntityQuery.all()).entities().stream().map(TableEntity::partitionKey).toList();
    assertThat(partitionKeys).containsExactlyElementsOf(KEYS);
  }

  @DatabaseTest
  void pagingResumesInUtf16Order(TableService service) {
    service.createTable("keys");
    TableClient table = service.tableClient("keys");
    for (String key : shuffled()) {
      table.insert(TableEntity.builder("p", key).build());
    }
    List<String> seen = new ArrayList<>();
    EntityQuery query = EntityQuery.all().withTop(2);
    while (true) {
      var page = table.query(query);
      page.entities().forEach(e -> seen.add(e.rowKey()));
      if (page.next().isEmpty()) {
        break;
      }
      query = query.withContinuation(page.next().get());
    }
    assertThat(seen).containsExactlyElementsOf(KEYS);
  }
}
