package dev.trestle.ext;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.TransactionFailedException;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.List;

/**
 * Time to live through the library: expired entities are absent to every read and write at once,
 * with the time from a fake clock.
 */
class TimeToLiveTest {
  private final FakeClock clock = new FakeClock();

  private static TableEntity entity(String pk, String rk) {
    return TableEntity.builder(pk, rk).put("value", 1).build();
  }

  private static List<String> rowKeys(TableClient table) {
    return table.listEntities().stream().map(TableEntity::rowKey).toList();
  }

  @DatabaseTest
  void aTableWithoutTimeToLiveKeepsItsEntitiesAndTrestleExpiresIsAnOrdinaryProperty(
      TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("plain");
      TableClient plain = service.tableClient("plain");
      plain.insert(
          TableEntity.builder("p", "r")
              .put(TimeToLive.EXPIRES_PROPERTY, clock.instant().plusSeconds(1))
              .build());
      clock.advance(Duration.ofDays(400));

      assertThat(plain.extensions().timeToLive()).isEqualTo(TimeToLive.OFF);
      assertThat(plain.get("p", "r").properties()).containsKey(TimeToLive.EXPIRES_PROPERTY);
      assertThat(plain.extensions().count((String) null)).isOne();
    }
  }

  @DatabaseTest
  void aTablesDefaultExpiresEntitiesAfterTheirLastWriteForEveryRead(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("sessions");
      TableClient sessions = service.tableClient("sessions");
      sessions.extensions().timeToLive(TimeToLive.of(Duration.ofMinutes(10)));
      assertThat(sessions.extensions().timeToLive())
          .isEqualTo(TimeToLive.of(Duration.ofMinutes(10)));
      sessions.insert(entity("p", "old"));
      clock.advance(Duration.ofMinutes(6));
      sessions.insert(entity("p", "new"));
      assertThat(rowKeys(sessions)).containsExactly("new", "old");

      clock.advance(Duration.ofMinutes(5)); // old: 11 minutes, new: 5

      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> sessions.get("p", "old"));
      assertThat(sessions.get("p", "new").rowKey()).isEqualTo("new");
      assertThat(rowKeys(sessions)).containsExactly("new");
      assertThat(sessions.query(EntityQuery.filter("value eq 1")).entities()).hasSize(1);
      assertThat(sessions.extensions().count((String) null)).isOne();
      assertThat(sessions.extensions().exists("p", "old")).isFalse();
      assertThat(sessions.extensions().exists("p", "new")).isTrue();
      assertThat(sessions.extensions().queryDescending(EntityQuery.all()).entities())
          .extracting(TableEntity::rowKey)
          .containsExactly("new");
    }
  }

  @DatabaseTest
  void anEntitysOwnExpiryWinsOverTheDefault(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("own");
      TableClient own = service.tableClient("own");
      own.extensions().timeToLive(TimeToLive.entitiesOnly());
      own.insert(
          TableEntity.builder("p", "soon")
              .put(TimeToLive.EXPIRES_PROPERTY, clock.instant().plusSeconds(30))
              .build());
      own.insert(entity("p", "forever"));
      clock.advance(Duration.ofSeconds(29));
      assertThat(rowKeys(own)).containsExactly("forever", "soon");

      clock.advance(Duration.ofSeconds(1));

      assertThat(rowKeys(own)).containsExactly("forever");
      own.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(10)));
      own.upsertReplace(
          TableEntity.builder("p", "later")
              .put(TimeToLive.EXPIRES_PROPERTY, clock.instant().plusSeconds(3600))
              .build());
      clock.advance(Duration.ofSeconds(60));
      assertThat(rowKeys(own)).containsExactly("later");
    }
  }

  @DatabaseTest
  void anExpiredEntityIsAbsentToEveryWrite(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("writes");
      TableClient table = service.tableClient("writes");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      String etag = table.insert(entity("p", "a")).etag();
      for (String rk : List.of("b", "c", "d", "e")) {
        table.insert(entity("p", rk));
      }
      clock.advance(Duration.ofSeconds(61));

      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> table.update(entity("p", "a"), etag));
      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> table.update(entity("p", "a"), "*"));
      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> table.merge(entity("p", "b"), "*"));
      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> table.delete("p", "c", "*"));
      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> table.delete("p", "c", etag));

      TableEntity inserted = table.insert(TableEntity.builder("p", "a").put("fresh", true).build());
      assertThat(table.get("p", "a").properties()).containsOnlyKeys("fresh");
      assertThat(inserted.etag()).isNotEqualTo(etag);
      table.upsertMerge(TableEntity.builder("p", "b").put("fresh", true).build());
      assertThat(table.get("p", "b").properties()).containsOnlyKeys("fresh");
      table.upsertReplace(TableEntity.builder("p", "c").put("fresh", true).build());
      assertThat(table.get("p", "c").properties()).containsOnlyKeys("fresh");

      // a live entity in a table with TTL is written as anywhere else
      clock.advance(Duration.ofSeconds(1));
      TableEntity updated = table.update(entity("p", "a"), inserted.etag());
      assertFails(
          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
          () -> table.update(entity("p", "a"), inserted.etag()));
      table.merge(TableEntity.builder("p", "a").put("more", 2).build(), updated.etag());
      table.delete("p", "b", "*");
      assertThat(rowKeys(table)).containsExactly("a", "c");
    }
  }

  @DatabaseTest
  void aTransactionSeesExpiredEntitiesAsAbsent(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("groups");
      TableClient table = service.tableClient("groups");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      table.insert(entity("p", "a"));
      table.insert(entity("p", "b"));
      clock.advance(Duration.ofSeconds(61));

      TransactionFailedException failed =
          (TransactionFailedException)
              org.assertj.core.api.Assertions.catchThrowable(
                  () ->
                      table.submitTransaction(
                          List.of(
                              TableOperation.insert(entity("p", "a")),
                              TableOperation.update(entity("p", "b"), "*"))));
      assertThat(failed.failedIndex()).isOne();
      assertThat(failed.operationError().errorCode()).isEqualTo(TableErrorCode.RESOURCE_NOT_FOUND);

      table.submitTransaction(
          List.of(
              TableOperation.insert(entity("p", "a")),
              TableOperation.upsertMerge(TableEntity.builder("p", "b").put("x", 1).build())));
      assertThat(rowKeys(table)).containsExactly("a", "b");
      assertThat(table.get("p", "b").properties()).containsOnlyKeys("x");
    }
  }

  @DatabaseTest
  void theSweeperRemovesExpiredEntitiesABoundedBatchAtATime(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      service.createTable("swept");
      TableClient table = service.tableClient("swept");
      for (int p = 0; p < 3; p++) {
        for (int r = 0; r < 10; r++) {
          table.insert(entity("p" + p, "r" + r));
        }
      }
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      clock.advance(Duration.ofSeconds(61));
      table.insert(entity("p1", "alive"));
      assertThat(table.extensions().count((String) null)).isOne();

      // the sweep covers every table with TTL of the database, one bounded batch per run
      for (int run = 0; run < 200; run++) {
        assertThat(service.expirySweep().runOnce(8)).isLessThanOrEqualTo(8);
      }

      table.extensions().timeToLive(TimeToLive.OFF); // whatever is left reappears
      assertThat(rowKeys(table)).containsExactly("alive");
    }
  }

  @DatabaseTest
  void anInvalidSettingIsRefusedBeforeTheDatabase(TestDatabase database) {
    assertThatThrownBy(() -> TimeToLive.of(Duration.ofMillis(1500)))
        .isInstanceOf(IllegalArgumentException.class);
    try (TableService service = ClockedServices.open(database, clock, true)) {
      assertFails(
          TableErrorCode.TABLE_NOT_FOUND,
          () -> service.tableClient("missing").extensions().timeToLive(TimeToLive.entitiesOnly()));
      assertFails(
          TableErrorCode.TABLE_NOT_FOUND,
          () -> service.tableClient("missing").extensions().timeToLive());
    }
  }

  @DatabaseTest
  void withExtensionsOffSettingIsRefusedAndExpiredEntitiesStayAbsent(TestDatabase database) {
    String account = "ttloff" + System.nanoTime() % 100000;
    try (TableService on = ClockedServices.open(database, clock, true, account);
        TableService off = ClockedServices.open(database, clock, false, account)) {
      on.createTable("kept");
      on.tableClient("kept").extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      on.tableClient("kept").insert(entity("p", "a"));
      clock.advance(Duration.ofSeconds(61));

      TableClient kept = off.tableClient("kept");
      assertFails(TableErrorCode.NOT_IMPLEMENTED, kept::extensions);
      assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> kept.get("p", "a"));
      assertThat(rowKeys(kept)).isEmpty();
      kept.insert(entity("p", "a"));
      assertThat(rowKeys(kept)).containsExactly("a");
    }
  }
}
