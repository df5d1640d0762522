package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityQuery;
import dev.trestle.PagedResults;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableInfo;
import dev.trestle.TableOperation;
import dev.trestle.TableQuery;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

/** Queries and table lists read to the end without a paging loop, and typed reads of results. */
class ListEntitiesTest {

  /** 30 entities: partitions p0..p2, rows r00..r09, N = 0..29. */
  private static TableClient thirty(TableService service) {
    service.createTable("numbers");
    TableClient table = service.tableClient("numbers");
    for (int p = 0; p < 3; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < 10; r++) {
        batch.add(
            TableOperation.insert(
                TableEntity.builder("p" + p, String.format("r%02d", r))
                    .put("N", p * 10 + r)
                    .put("Odd", r % 2 == 1)
                    .build()));
      }
      table.submitTransaction(batch);
    }
    return table;
  }

  @DatabaseTest
  void everyMatchingEntityInKeyOrderAcrossPages(TableService service) {
    TableClient table = thirty(service);
    PagedResults<TableEntity> odd =
        table.listEntities(EntityQuery.filter("Odd eq true").withTop(4));

    assertThat(odd.stream().map(e -> e.getInt32("N")).toList())
        .containsExactly(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29);
    assertThat(odd.streamByPage().map(List::size).toList()).containsExactly(4, 4, 4, 3);
    assertThat(table.listEntities()).hasSize(30);
  }

  @DatabaseTest
  void selectAndKeyRangeHoldOnEveryPage(TableService service) {
    TableClient table = thirty(service);
    EntityQuery query =
        EntityQuery.all()
            .withTop(3)
            .withSelect(List.of("N"))
            .withKeyRange(new EntityQuery.KeyRange("p1", "r05", "p2", "r02"));

    List<TableEntity> entities = table.listEntities(query).stream().toList();

    assertThat(entities)
        .extracting(e -> e.getInt32("N"))
        .containsExactly(15, 16, 17, 18, 19, 20, 21, 22);
    assertThat(entities).allSatisfy(e -> assertThat(e.properties()).containsOnlyKeys("N"));
  }

  @DatabaseTest
  void aPageIsReadOnlyWhenIterationReachesIt(TableService service) {
    TableClient table = thirty(service);
    Iterator<TableEntity> iterator = table.listEntities(EntityQuery.all().withTop(5)).iterator();
    assertThat(iterator.next().rowKey()).isEqualTo("r00");

    table.listEntities().forEach(e -> table.delete(e.partitionKey(), e.rowKey(), "*"));

    // the first page was read before the deletes; the second is read after them, and is empty
    List<String> rest = new ArrayList<>();
    iterator.forEachRemaining(e -> rest.add(e.rowKey()));
    assertThat(rest).containsExactly("r01", "r02", "r03", "r04");
  }

  @DatabaseTest
  void eachIterationSeesTheTableAsItIsThen(TableService service) {
    TableClient table = thirty(service);
    PagedResults<TableEntity> all = table.listEntities(EntityQuery.all().withTop(7));
    assertThat(all).hasSize(30);
    table.insert(TableEntity.builder("p9", "r00").build());
    table.delete("p0", "r00", "*");
    assertThat(all).hasSize(30);
    assertThat(all.iterator().next().rowKey()).isEqualTo("r01");
  }

  @DatabaseTest
  void errorsComeFromTheIterationThatReadsThePage(TableService service) {
    PagedResults<TableEntity> missing = service.tableClient("missing").listEntities();
    assertFails(TableErrorCode.TABLE_NOT_FOUND, () -> missing.iterator().hasNext());

    TableClient table = thirty(service);
    PagedResults<TableEntity> badFilter = table.listEntities(EntityQuery.filter("N eq"));
    assertFails(TableErrorCode.INVALID_INPUT, () -> badFilter.stream().count());
  }

  @DatabaseTest
  void anEmptyTableListsNothing(TableService service) {
    service.createTable("empty");
    assertThat(service.tableClient("empty").listEntities()).isEmpty();
    assertThat(service.tableClient("empty").listEntities().iterableByPage()).isEmpty();
  }

  @DatabaseTest
  void listTablesReadsEveryPageInNameOrder(TableService service) {
    for (String name : List.of("delta", "Alpha", "charlie", "bravo", "echo", "foxtrot", "golf")) {
      service.createTable(name);
    }
    assertThat(service.listTables(new TableQuery(null, 2, null)).stream().map(TableInfo::name))
        .containsExactly("Alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf");
    assertThat(service.listTables(new TableQuery(null, 3, null)).streamByPage().map(List::size))
        .containsExactly(3, 3, 1);
    assertThat(
            service
                .listTables(new TableQuery("TableName ge 'd' and TableName lt 'f'", 1, null))
                .stream()
                .map(TableInfo::name))
        .containsExactly("delta", "echo");
  }

  @DatabaseTest
  void typedGettersReadStoredValuesExactly(TableService service) {
    service.createTable("typed");
    TableClient table = service.tableClient("typed");
    Instant when = Instant.parse("1601-01-01T00:00:00.0000001Z");
    UUID id = UUID.randomUUID();
    table.insert(
        TableEntity.builder("p", "r")
            .put("S", "héllo")
            .put("I", Integer.MIN_VALUE)
            .put("L", Long.MIN_VALUE)
            .put("D", Double.NaN)
            .put("B", false)
            .put("T", when)
            .put("G", id)
            .put("X", new byte[] {0, (byte) 0xff})
            .build());

    TableEntity read = table.listEntities().iterator().next();

    assertThat(read.getString("S")).isEqualTo("héllo");
    assertThat(read.getInt32("I")).isEqualTo(Integer.MIN_VALUE);
    assertThat(read.getInt64("L")).isEqualTo(Long.MIN_VALUE);
    assertThat(read.getDouble("D")).isNaN();
    assertThat(read.getBoolean("B")).isFalse();
    assertThat(read.getDateTime("T")).isEqualTo(when);
    assertThat(read.getGuid("G")).isEqualTo(id);
    assertThat(read.getBinary("X")).containsExactly(0, 0xff);
    assertThat(read.getInt64("I")).isEqualTo((long) Integer.MIN_VALUE);
  }
}
