package dev.trestle.ext;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.ChangeFeed;
import dev.trestle.ChangePage;
import dev.trestle.TableChange;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TransactionFailedException;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.api.Assertions;

class ChangeFeedTest {

  private static TableEntity entity(String pk, String rk, int value) {
    return TableEntity.builder(pk, rk).put("Value", value).build();
  }

  private static List<String> described(List<TableChange> changes) {
    return changes.stream().map(c -> c.kind() + " " + c.partitionKey() + "/" + c.rowKey()).toList();
  }

  /** Every change after the token, read a page at a time. */
  private static List<TableChange> readAll(ChangeFeed feed, String from) {
    List<TableChange> all = new ArrayList<>();
    String token = from;
    while (true) {
      ChangePage page = feed.read(token, 7, Duration.ZERO);
      if (page.changes().isEmpty()) {
        return all;
      }
      all.addAll(page.changes());
      token = page.next();
    }
  }

  @DatabaseTest
  @MultiShardWrites("a truncate deletes every partition of the table in one statement")
  void recordsEveryWritePathInCommitOrder(TableService service) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    items.insert(entity("p", "before", 0)); // before the feed: not in it
    ChangeFeed feed = items.extensions().changeFeed();
    String start = feed.enable(false, ChangeFeed.DEFAULT_RETENTION);

    TableEntity inserted = items.insert(entity("p", "a", 1));
    items.upsertReplace(entity("p", "b", 2));
    items.upsertMerge(entity("p", "a", 3));
    TableEntity replaced = items.update(entity("p", "b", 4), "*");
    items.delete("p", "before", "*");
    items.submitTransaction(
        List.of(
            TableOperation.insert(entity("q", "x", 5)),
            TableOperation.insert(entity("q", "y", 6)),
            TableOperation.upsertReplace(entity("q", "z", 7))));
    items.submitTransaction(
        List.of(
            TableOperation.delete("q", "x", "*"), TableOperation.merge(entity("q", "y", 8), "*")));
    assertThat(items.extensions().deletePartition("q")).isEqualTo(2);
    assertThat(items.extensions().truncate()).isEqualTo(2);

    List<TableChange> changes = readAll(feed, start);
    // a bulk delete's changes are one per entity, in the order the database deleted them
    assertThat(described(changes.subList(10, 12)))
        .containsExactlyInAnyOrder("DELETE q/y", "DELETE q/z");
    assertThat(described(changes.subList(12, 14)))
        .containsExactlyInAnyOrder("DELETE p/a", "DELETE p/b");
    assertThat(described(changes.subList(0, 10)))
        .containsExactly(
            "INSERT p/a",
            "INSERT p/b",
            "UPDATE p/a",
            "UPDATE p/b",
            "DELETE p/before",
            "INSERT q/x",
            "INSERT q/y",
            "INSERT q/z",
            "DELETE q/x",
            "UPDATE q/y");
    assertThat(changes.get(0).etag()).isEqualTo(inserted.etag());
    assertThat(changes.get(0).timestamp()).isEqualTo(inserted.timestamp());
    assertThat(changes.get(3).etag()).isEqualTo(replaced.etag());
    assertThat(changes.get(4).etag()).isNull();
    assertThat(changes).allSatisfy(c -> assertThat(c.entity()).isNull());
    assertThat(changes).allSatisfy(c -> assertThat(c.changed()).isNotNull());
    assertThat(readAll(feed, null)).isEqualTo(changes);
  }

  @DatabaseTest
  void carriesTheWrittenEntityWhenAsked(TableService service) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    ChangeFeed feed = items.extensions().changeFeed();
    feed.enable(true, ChangeFeed.DEFAULT_RETENTION);
    items.insert(entity("p", "a", 1));
    TableEntity merged = items.merge(TableEntity.builder("p", "a").put("Other", "x").build(), "*");
    items.delete("p", "a", "*");

    List<TableChange> changes = feed.read(null).changes();
    assertThat(changes.get(0).entity().properties()).containsKey("Value");
    assertThat(changes.get(1).entity()).isEqualTo(merged);
    assertThat(changes.get(2).entity()).isNull();
  }

  @DatabaseTest
  void resumesFromAPositionTokenAndFromLatest(TableService service) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    ChangeFeed feed = items.extensions().changeFeed();
    feed.enable(false, ChangeFeed.DEFAULT_RETENTION);
    for (int i = 0; i < 5; i++) {
      items.insert(entity("p", "r" + i, i));
    }

    ChangePage first = feed.read(null, 2, Duration.ZERO);
    assertThat(described(first.changes())).containsExactly("INSERT p/r0", "INSERT p/r1");
    assertThat(first.next()).isEqualTo(first.changes().get(1).position());
    ChangePage rest = feed.read(first.next(), 10, Duration.ZERO);
    assertThat(described(rest.changes()))
        .containsExactly("INSERT p/r2", "INSERT p/r3", "INSERT p/r4");
    ChangePage none = feed.read(rest.next(), 10, Duration.ZERO);
    assertThat(none.changes()).isEmpty();
    assertThat(none.next()).isEqualTo(rest.next());

    String latest = feed.latest();
    assertThat(latest).isEqualTo(rest.next());
    items.insert(entity("p", "r5", 5));
    assertThat(described(feed.read(latest).changes())).containsExactly("INSERT p/r5");
    // a long poll answers at once when there is a change
    assertThat(feed.read(latest, 10, Duration.ofSeconds(30)).changes()).hasSize(1);
  }

  @DatabaseTest
  void resumesAfterARestartOfTheService(TestDatabase database) {
    String account = TestDatabase.newAccount();
    String token;
    try (TableService service = database.newService(account)) {
      service.createTable("items");
      TableClient items = service.tableClient("items");
      items.extensions().changeFeed().enable(false, ChangeFeed.DEFAULT_RETENTION);
      items.insert(entity("p", "a", 1));
      token = items.extensions().changeFeed().read(null).next();
      items.insert(entity("p", "b", 2)); // written, not yet read, when the service stops
    }
    try (TableService restarted = database.newService(account)) {
      ChangeFeed feed = restarted.tableClient("items").extensions().changeFeed();
      assertThat(described(feed.read(token).changes())).containsExactly("INSERT p/b");
    }
  }

  @DatabaseTest
  void aRolledBackTransactionLeavesNothingInTheFeed(TableService service) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    ChangeFeed feed = items.extensions().changeFeed();
    feed.enable(false, ChangeFeed.DEFAULT_RETENTION);
    items.insert(entity("p", "taken", 0));
    String after = feed.latest();

    Assertions.assertThatThrownBy(
            () ->
                items.submitTransaction(
                    List.of(
                        TableOperation.insert(entity("p", "new", 1)),
                        TableOperation.upsertReplace(entity("p", "other", 2)),
                        TableOperation.insert(entity("p", "taken", 3)))))
        .isInstanceOf(TransactionFailedException.class);
    assertFails(TableErrorCode.ENTITY_ALREADY_EXISTS, () -> items.insert(entity("p", "taken", 4)));

    assertThat(feed.read(after).changes()).isEmpty();
    items.insert(entity("p", "next", 5));
    // positions have no gap where the rolled-back writes were
    assertThat(feed.read(after).changes())
        .singleElement()
        .satisfies(c -> assertThat(c.rowKey()).isEqualTo("next"));
  }

  @DatabaseTest
  void isOffByDefaultAndStopsWhenDisabled(TableService service) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    ChangeFeed feed = items.extensions().changeFeed();
    items.insert(entity("p", "a", 1));

    assertThat(feed.enabled()).isFalse();
    assertFails(TableErrorCode.RESOURCE_NOT_FOUND, () -> feed.read(null));
    String first = feed.enable(false, ChangeFeed.DEFAULT_RETENTION);
    items.insert(entity("p", "b", 1));
    assertThat(feed.enabled()).isTrue();

    feed.disable();
    assertThat(feed.enabled()).isFalse();
    items.insert(entity("p", "c", 1));
    feed.enable(false, ChangeFeed.DEFAULT_RETENTION);
    // a token of the earlier feed does not resume the new one
    assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> feed.read(first));
    assertThat(feed.read(null).changes()).isEmpty();
    service.deleteTable("items"); // the feed goes with its table
  }

  @DatabaseTest
  void sweepsChangesOlderThanTheRetentionABoundedNumberAtATime(TableService service) {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    ChangeFeed feed = items.extensions().changeFeed();
    String start = feed.enable(false, ChangeFeed.DEFAULT_RETENTION);
    for (int i = 0; i < 5; i++) {
      items.insert(entity("p", "r" + i, i));
    }
    assertThat(feed.sweep(100)).isZero(); // all younger than a week

    feed.enable(false, Duration.ofNanos(100)); // one tick: every change written is older
    assertThat(feed.sweep(2)).isEqualTo(2);
    assertThat(described(feed.read(null).changes()))
        .containsExactly("INSERT p/r2", "INSERT p/r3", "INSERT p/r4");
    assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> feed.read(start));
    assertThat(feed.sweep(100)).isEqualTo(3);
    assertFails(TableErrorCode.OUT_OF_RANGE_INPUT, () -> feed.read(start));
  }

  /**
   * Writers of one table commit concurrently while a reader follows the feed: what the reader
   * collected, reading up to the newest committed position each time, is exactly the final feed (no
   * position read past and committed later), every write appears once, and each entity's versions
   * appear in order.
   */
  @DatabaseTest
  void concurrentWritersAreReadExactlyOnceInCommitOrder(TableService service) throws Exception {
    service.createTable("items");
    TableClient items = service.tableClient("items");
    ChangeFeed feed = items.extensions().changeFeed();
    String start = feed.enable(false, ChangeFeed.DEFAULT_RETENTION);
    int writers = 6;
    int rounds = 25;
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    AtomicBoolean writing = new AtomicBoolean(true);
    try {
      Future<List<TableChange>> follower =
          pool.submit(
              () -> {
                List<TableChange> seen = new ArrayList<>();
                String token = start;
                boolean last = false;
                while (!last) {
                  last = !writing.get();
                  ChangePage page = feed.read(token, 50, Duration.ZERO);
                  seen.addAll(page.changes());
                  token = page.next();
                  if (last && !page.changes().isEmpty()) {
                    last = false; // drain
                  }
                }
                return seen;
              });
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String pk = "w" + w;
        done.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    items.upsertReplace(entity(pk, "shared", r));
                    items.submitTransaction(
                        List.of(
                            TableOperation.upsertReplace(entity(pk, "a" + r, r)),
                            TableOperation.upsertReplace(entity(pk, "b" + r, r))));
                  }
                  return null;
                }));
      }
      for (Future<?> writer : done) {
        writer.get();
      }
      writing.set(false);
      List<TableChange> followed = follower.get();
      List<TableChange> all = readAll(feed, start);

      assertThat(followed).isEqualTo(all);
      assertThat(all).hasSize(writers * rounds * 3);
      Set<String> versions = new HashSet<>();
      for (TableChange change : all) {
        assertThat(versions.add(change.partitionKey() + change.rowKey() + change.etag())).isTrue();
      }
      for (int w = 0; w < writers; w++) {
        String pk = "w" + w;
        List<java.time.Instant> shared =
            all.stream()
                .filter(c -> c.partitionKey().equals(pk) && c.rowKey().equals("shared"))
                .map(TableChange::timestamp)
                .toList();
        assertThat(shared).hasSize(rounds).isSorted();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @DatabaseTest
  void isNotImplementedWithExtensionsOff(TestDatabase database) {
    try (TableService off = database.newServiceWithExtensionsOff()) {
      off.createTable("items");
      assertFails(TableErrorCode.NOT_IMPLEMENTED, () -> off.tableClient("items").extensions());
    }
  }
}
