package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.codec.VersionClock;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.StoreSettings;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * A write's new version (Timestamp and ETag) comes after the stored one whatever the clock of the
 * server writing it: two stores on one database, one clock an hour ahead and one an hour behind,
 * stand for two servers with skewed clocks.
 */
class VersionRuleTest {

  private static TableService service(TestDatabase database, String account, Duration skew) {
    return SqlTableService.open(
        StoreSettings.onDataSource(database.dataSource(), account),
        QueryLimits.SERVICE,
        new VersionClock(Clock.offset(Clock.systemUTC(), skew)));
  }

  private static TableEntity entity(int value) {
    return TableEntity.builder("p", "r").put("value", value).build();
  }

  /** Each later than the one before, each with an ETag of its own. */
  private static void assertLater(TableEntity later, TableEntity earlier) {
    assertThat(later.timestamp()).isAfter(earlier.timestamp());
    assertThat(later.etag()).isNotEqualTo(earlier.etag());
  }

  @DatabaseTest
  void everyWriteOfAServerWithItsClockBehindComesAfterTheStoredVersion(TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (TableService ahead = service(database, account, Duration.ofHours(1));
        TableService behind = service(database, account, Duration.ofHours(-1))) {
      ahead.createTable("versions");
      TableClient fast = ahead.tableClient("versions");
      TableClient slow = behind.tableClient("versions");
      TableEntity inserted = fast.insert(entity(0));

      TableEntity replaced = slow.upsertReplace(entity(1));
      assertLater(replaced, inserted);
      TableEntity merged = slow.upsertMerge(entity(2));
      assertLater(merged, replaced);
      TableEntity updated = slow.update(entity(3), merged.etag());
      assertLater(updated, merged);
      TableEntity mergedIfMatch = slow.merge(entity(4), updated.etag());
      assertLater(mergedIfMatch, updated);
      TableEntity unconditional = slow.update(entity(5), "*");
      assertLater(unconditional, mergedIfMatch);
      TableEntity inTransaction =
          slow.submitTransaction(List.of(TableOperation.upsertReplace(entity(6)))).get(0);
      assertLater(inTransaction, unconditional);
      TableEntity mergedInTransaction =
          slow.submitTransaction(List.of(TableOperation.merge(entity(7), inTransaction.etag())))
              .get(0);
      assertLater(mergedInTransaction, inTransaction);

      TableEntity read = fast.get("p", "r");
      assertThat(read.etag()).isEqualTo(mergedInTransaction.etag());
      assertThat(read.timestamp()).isEqualTo(mergedInTransaction.timestamp());
      assertThat(read.property("value")).contains(dev.trestle.PropertyValue.of(7));
    }
  }

  @DatabaseTest
  void anEarlierVersionsETagNeverMatchesAfterAWriteByAServerWithItsClockBehind(
      TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (TableService ahead = service(database, account, Duration.ofHours(1));
        TableService behind = service(database, account, Duration.ofHours(-1))) {
      ahead.createTable("versions");
      TableClient fast = ahead.tableClient("versions");
      TableClient slow = behind.tableClient("versions");
      TableEntity first = fast.insert(entity(0));
      TableEntity second = slow.update(entity(1), first.etag());
      assertLater(second, first);

      assertCode(
          catchThrowable(() -> fast.update(entity(2), first.etag())),
          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED);
      assertCode(
          catchThrowable(() -> slow.delete("p", "r", first.etag())),
          TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED);
      // the server ahead writes after the one behind and the other way round: always later
      TableEntity third = fast.update(entity(3), second.etag());
      assertLater(third, second);
      TableEntity fourth = slow.upsertReplace(entity(4));
      assertLater(fourth, third);
      slow.delete("p", "r", fourth.etag());
      assertThat(fast.listEntities().stream()).isEmpty();
    }
  }
}
