package dev.trestle.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Time to live on the bulk paths that copies, imports and exports take: an expired entity is as
 * absent to the bulk writer's inserts and to the bulk reader as to single reads and writes.
 */
class TimeToLiveBulkTest {
  private final FakeClock clock = new FakeClock();

  private static TableEntity entity(String pk, String rk, int value) {
    return TableEntity.builder(pk, rk).put("value", value).build();
  }

  private static BulkWriter inserting(TableService service, String table) {
    return service.bulkWriter(
        table, BulkWriteOptions.defaults().withMode(BulkWriteOptions.Mode.INSERT));
  }

  @DatabaseTest
  void aBulkInsertOverAnExpiredEntityWritesAsOverNone(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("bulkttl");
      TableClient table = service.tableClient("bulkttl");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      table.insert(entity("p", "expired", 1));
      clock.advance(Duration.ofSeconds(61));
      table.insert(entity("p", "alive", 1));

      try (BulkWriter writer = inserting(service, "bulkttl")) {
        writer.add(entity("p", "expired", 2));
        writer.add(entity("p", "new", 2));
      }
      assertThat(table.get("p", "expired").properties().get("value").value()).isEqualTo(2);
      assertThat(table.get("p", "new").properties().get("value").value()).isEqualTo(2);

      // a live entity is still a duplicate
      assertThatThrownBy(
              () -> {
                try (BulkWriter writer = inserting(service, "bulkttl")) {
                  writer.add(entity("p", "alive", 3));
                }
              })
          .isInstanceOfSatisfying(
              TableException.class,
              e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.ENTITY_ALREADY_EXISTS));
      assertThat(table.get("p", "alive").properties().get("value").value()).isEqualTo(1);
    }
  }

  @DatabaseTest
  void aBulkInsertInATableWithoutTimeToLiveStillMeetsTheKey(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("bulkplain");
      service.tableClient("bulkplain").insert(entity("p", "r", 1));
      clock.advance(Duration.ofDays(400));

      assertThatThrownBy(
              () -> {
                try (BulkWriter writer = inserting(service, "bulkplain")) {
                  writer.add(entity("p", "r", 2));
                }
              })
          .isInstanceOfSatisfying(
              TableException.class,
              e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.ENTITY_ALREADY_EXISTS));
    }
  }

  @DatabaseTest
  void theBulkReaderSkipsExpiredEntities(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("readttl");
      TableClient table = service.tableClient("readttl");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      table.insert(entity("p", "a", 1));
      table.insert(entity("p", "b", 1));
      clock.advance(Duration.ofSeconds(61));
      table.insert(entity("p", "c", 1));
      table.upsertReplace(entity("p", "a", 2)); // written again: alive

      assertThat(read(service, "readttl")).containsExactly("a", "c");

      table.extensions().timeToLive(TimeToLive.OFF); // a table without TTL reads every row
      assertThat(read(service, "readttl")).containsExactly("a", "b", "c");
    }
  }

  private static List<String> read(TableService service, String table) {
    List<String> rowKeys = new ArrayList<>();
    service.readEntities(table, null, null, e -> rowKeys.add(e.rowKey()));
    return rowKeys;
  }
}
