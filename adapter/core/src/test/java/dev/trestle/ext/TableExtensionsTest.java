package dev.trestle.ext;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableExtensions;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;

class TableExtensionsTest {

  /** Partitions p0..p(partitions-1), each with rows r000.. and Price = row number. */
  private static TableClient seeded(TableService service, int partitions, int rows) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    for (int p = 0; p < partitions; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < rows; r++) {
        batch.add(
            TableOperation.insert(
                TableEntity.builder("p" + p, String.format("r%03d", r))
                    .put("Price", r)
                    .put("Name", "n" + r)
                    .build()));
      }
      items.submitTransaction(batch);
    }
    return items;
  }

  private static List<String> keys(EntityPage page) {
    return page.entities().stream().map(e -> e.partitionKey() + "/" + e.rowKey()).toList();
  }

  @DatabaseTest
  void countsTheWholeTableAFilterAndAKeyRange(TableService service) {
    TableExtensions items = seeded(service, 3, 20).extensions();

    assertThat(items.count((String) null)).isEqualTo(60);
    assertThat(items.count("PartitionKey eq 'p1'")).isEqualTo(20);
    assertThat(items.count("Price ge 15")).isEqualTo(15);
    assertThat(items.count("PartitionKey eq 'p2' and Price lt 5")).isEqualTo(5);
    assertThat(items.count("Price eq 'text'")).isZero();
    assertThat(
            items.count(
                EntityQuery.filter("Price lt 10")
                    .withKeyRange(new EntityQuery.KeyRange("p1", "r005", "p2", null))))
        .isEqualTo(15);
  }

  @DatabaseTest
  void countsThroughADeclaredIndexWithTheSameAnswer(TableService service) {
    TableExtensions items = seeded(service, 2, 30).extensions();
    long before = items.count("Price gt 20 and Price le 25");
    service.createIndex("items", "Price", EdmType.INT32);

    assertThat(items.count("Price gt 20 and Price le 25")).isEqualTo(before).isEqualTo(10);
  }

  @DatabaseTest
  void existsWithoutReadingTheEntity(TableService service) {
    TableExtensions items = seeded(service, 1, 3).extensions();

    assertThat(items.exists("p0", "r001")).isTrue();
    assertThat(items.exists("p0", "r999")).isFalse();
    assertThat(items.exists("p9", "r001")).isFalse();
  }

  @DatabaseTest
  void aMissingTableIsTableNotFound(TableService service) {
    TableExtensions missing = service.tableClient("nothere").extensions();

    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> missing.count("Price gt 1"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> missing.exists("a", "b"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> missing.queryDescending(EntityQuery.all()));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> missing.deletePartition("a"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> missing.deleteWhere("Price gt 1"));
    assertFails(TableErrorCode.TABLE_NOT_FOUND, missing::truncate);
  }

  @DatabaseTest
  void aBadFilterIsInvalidInput(TableService service) {
    TableExtensions items = seeded(service, 1, 1).extensions();

    assertFails(TableErrorCode.INVALID_INPUT, () -> items.count("Price gt"));
    assertFails(TableErrorCode.INVALID_INPUT, () -> items.deleteWhere("Price gt"));
  }

  @DatabaseTest
  void readsTheLastRowKeysOfAPartitionFirst(TableService service) {
    TableExtensions items = seeded(service, 3, 20).extensions();

    EntityPage latest =
        items.queryDescending(EntityQuery.filter("PartitionKey eq 'p1'").withTop(3));

    assertThat(keys(latest)).containsExactly("p1/r019", "p1/r018", "p1/r017");
    assertThat(latest.next()).isPresent();
  }

  @DatabaseTest
  void pagesDescendingMeetEveryMatchOnceWhileRowsAreInsertedBehind(TableService service) {
    TableClient table = seeded(service, 3, 20);
    TableExtensions items = table.extensions();
    EntityQuery query = EntityQuery.filter("Price ge 5").withTop(7);
    List<String> seen = new ArrayList<>();
    EntityPage page = items.queryDescending(query);
    seen.addAll(keys(page));
    // Rows inserted after (in descending order: before) the position are never met again.
    table.insert(TableEntity.builder("p2", "r999").put("Price", 50).build());
    while (page.next().isPresent()) {
      page = items.queryDescending(query.withContinuation(page.next().get()));
      seen.addAll(keys(page));
    }

    List<String> expected = new ArrayList<>();
    for (int p = 2; p >= 0; p--) {
      for (int r = 19; r >= 5; r--) {
        expected.add("p" + p + "/" + String.format("r%03d", r));
      }
    }
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @DatabaseTest
  void descendingPagesSelectProperties(TableService service) {
    TableExtensions items = seeded(service, 1, 2).extensions();

    TableEntity entity =
        items
            .queryDescending(EntityQuery.all().withSelect(List.of("Name")).withTop(1))
            .entities()
            .get(0);

    assertThat(entity.rowKey()).isEqualTo("r001");
    assertThat(entity.properties()).containsOnlyKeys("Name");
  }

  @DatabaseTest
  void deletesAPartitionAndLeavesTheOthers(TableService service) {
    TableClient table = seeded(service, 3, 20);

    assertThat(table.extensions().deletePartition("p1")).isEqualTo(20);
    assertThat(table.extensions().deletePartition("p1")).isZero();

    assertThat(table.extensions().count("PartitionKey eq 'p1'")).isZero();
    assertThat(table.extensions().count((String) null)).isEqualTo(40);
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> table.get("p1", "r000"));
  }

  @DatabaseTest
  void deletesByFilterAPartitionAtATimeReportingProgress(TableService service) {
    TableClient table = seeded(service, 3, 20);
    List<String> progress = new ArrayList<>();

    long deleted =
        table
            .extensions()
            .deleteWhere(
                EntityQuery.filter("Price lt 4 or Name eq 'n19'"),
                (partition, n, total) -> progress.add(partition + ":" + n + ":" + total));

    assertThat(deleted).isEqualTo(15);
    assertThat(progress).containsExactly("p0:5:5", "p1:5:10", "p2:5:15");
    assertThat(table.extensions().count((String) null)).isEqualTo(45);
    assertThat(table.extensions().count("Price lt 4")).isZero();
  }

  @DatabaseTest
  void deleteByFilterStaysInsideTheKeyRange(TableService service) {
    TableClient table = seeded(service, 3, 10);

    long deleted =
        table
            .extensions()
            .deleteWhere(
                EntityQuery.all().withKeyRange(new EntityQuery.KeyRange("p1", null, "p1", null)),
                TableExtensions.DeleteProgress.NONE);

    assertThat(deleted).isEqualTo(10);
    assertThat(table.extensions().count((String) null)).isEqualTo(20);
  }

  @DatabaseTest
  @MultiShardWrites("a truncate deletes every partition of the table in one statement")
  void truncateKeepsTheTableAndItsIndexes(TableService service) {
    TableClient table = seeded(service, 3, 10);
    service.createIndex("items", "Price", EdmType.INT32);

    assertThat(table.extensions().truncate()).isEqualTo(30);

    assertThat(table.extensions().count((String) null)).isZero();
    assertThat(service.getTable("items")).isPresent();
    assertThat(service.listIndexes("items")).hasSize(1);
    table.insert(TableEntity.builder("p0", "r000").put("Price", 1).build());
    assertThat(table.extensions().count("Price eq 1")).isEqualTo(1);
  }

  @DatabaseTest
  void switchedOffEveryExtensionIsNotImplemented(TestDatabase database) {
    try (TableService off =
        TableService.builder()
            .dataSource(database.dataSource())
            .account(TestDatabase.newAccount())
            .migrate(false)
            .extensions(false)
            .build()) {
      off.createTable("items");
      TableClient items = off.tableClient("items");

      assertFails(TableErrorCode.NOT_IMPLEMENTED, items::extensions);
      // the standard operations are untouched
      items.insert(TableEntity.builder("a", "b").build());
      assertThat(items.query(EntityQuery.all()).entities()).hasSize(1);
    }
  }

  @DatabaseTest
  void startsWithMatchesPrefixesOfKeysAndStringPropertiesByCodeUnits(TableService service) {
    service.createTable("words");
    TableClient words = service.tableClient("words");
    String[] rowKeys = {
      "ab", "abc", "abd", "Ab", "ac", "a\uFFFF", "a\uFFFFz", "b", "\uD83D\uDE00x"
    };
    for (String rowKey : rowKeys) {
      words.insert(TableEntity.builder("p", rowKey).put("Name", rowKey).put("N", 1).build());
    }
    TableExtensions ext = words.extensions();

    assertThat(ext.count("startswith(RowKey,'ab')")).isEqualTo(3);
    assertThat(ext.count("startswith(Name,'ab')")).isEqualTo(3);
    assertThat(ext.count("startswith(RowKey,'a')")).isEqualTo(6);
    assertThat(ext.count("startswith(RowKey,'a\uFFFF')")).isEqualTo(2);
    assertThat(ext.count("startswith(RowKey,'\uD83D')")).as("a lone high surrogate").isEqualTo(1);
    assertThat(ext.count("startswith(RowKey,'')")).isEqualTo(rowKeys.length);
    assertThat(ext.count("startswith(N,'1')")).as("a number has no prefix").isZero();
    assertThat(ext.count("PartitionKey eq 'p' and not startswith(RowKey,'a')")).isEqualTo(3);
    assertThat(
            keys(
                ext.queryDescending(
                    EntityQuery.filter("startswith(RowKey,'ab')").withSelect(List.of("Name")))))
        .containsExactly("p/abd", "p/abc", "p/ab");
    assertThat(ext.deleteWhere("startswith(RowKey,'a')")).isEqualTo(6);
    assertThat(ext.count((String) null)).isEqualTo(3);
  }

  @DatabaseTest
  void aStandardQueryKeepsTheStandardLanguage(TableService service) {
    TableClient items = seeded(service, 1, 2);

    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> items.query(EntityQuery.filter("startswith(RowKey,'r')")));
  }
}
