package dev.trestle.store.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.store.internal.database.Store;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The bulk reader reads several chunks at once on threads of their own, yet hands the rows out in
 * key order; a caller stopping anywhere (within the chunk it takes, while later ones are read
 * ahead) has taken exactly the table up to a key, and a read after that key continues with no gap
 * and no duplicate; the reading threads end with the read.
 */
class ChunksReadAheadTest {
  private static final int ENTITIES = 503;
  private static final int CHUNK = 7;
  private static final int READERS = 3;

  private final FakeClock clock = new FakeClock();

  @DatabaseTest
  void manySmallChunksReadAtOnceComeOutInKeyOrder(TestDatabase database) throws Exception {
    String account = account();
    try (TableService service = ClockedServices.open(database, clock, false, account);
        Store store = ClockedServices.store(database, clock)) {
      List<String> keys = load(service);
      BulkEntityReader reader = new BulkEntityReader(store, account, "reads", CHUNK, READERS);

      List<String> raw = new ArrayList<>();
      reader.readRaw(null, null, row -> raw.add(key(row.keys())));
      List<String> decoded = new ArrayList<>();
      reader.read(null, null, entity -> decoded.add(key(entity)));

      assertThat(raw).isEqualTo(keys);
      assertThat(decoded).isEqualTo(keys);
      assertThat(readingThreads()).isEmpty();
    }
  }

  @DatabaseTest
  void aReadStoppedWhileLaterChunksAreReadAheadResumesWithNoGapAndNoDuplicate(TestDatabase database)
      throws Exception {
    String account = account();
    try (TableService service = ClockedServices.open(database, clock, false, account);
        Store store = ClockedServices.store(database, clock)) {
      List<String> keys = load(service);
      BulkEntityReader reader = new BulkEntityReader(store, account, "reads", CHUNK, READERS);
      for (int stopAt : new int[] {1, CHUNK - 1, CHUNK, CHUNK + 1, 250, ENTITIES - 1}) {
        List<RawEntity> first = new ArrayList<>();
        reader.readRaw(
            null,
            null,
            row -> {
              first.add(row);
              return first.size() < stopAt;
            });
        assertThat(first).hasSize(stopAt);
        assertThat(readingThreads()).isEmpty();

        TableEntity last = first.getLast().keys();
        List<String> all = new ArrayList<>(first.stream().map(row -> key(row.keys())).toList());
        reader.readRaw(last.partitionKey(), last.rowKey(), row -> all.add(key(row.keys())));
        assertThat(all).as("stopped after %d", stopAt).isEqualTo(keys);
      }
    }
  }

  /** The entities' keys in key order: partitions of 50, so that chunks straddle partitions. */
  private static List<String> load(TableService service) {
    service.createTable("reads");
    List<String> keys = new ArrayList<>();
    try (BulkWriter writer =
        service.bulkWriter(
            "reads", BulkWriteOptions.defaults().withMode(BulkWriteOptions.Mode.INSERT))) {
      for (int i = 0; i < ENTITIES; i++) {
        TableEntity entity =
            TableEntity.builder(String.format("p%03d", i / 50), String.format("r%05d", i))
                .put("i", i)
                .build();
        writer.add(entity);
        keys.add(key(entity));
      }
    }
    return keys;
  }

  private static String key(TableEntity entity) {
    return entity.partitionKey() + "/" + entity.rowKey();
  }

  private static String account() {
    return "read" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The reading threads still alive, given a moment to exit once their last task is done. */
  private static List<String> readingThreads() throws InterruptedException {
    for (int i = 0; i < 100 && !aliveReadingThreads().isEmpty(); i++) {
      Thread.sleep(50);
    }
    return aliveReadingThreads();
  }

  private static List<String> aliveReadingThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith("trestle-read-reads-"))
        .toList();
  }
}
