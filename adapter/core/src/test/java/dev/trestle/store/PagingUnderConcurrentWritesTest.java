package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * 6,000 entities over 60 partitions, read page by page while another thread inserts, deletes and
 * updates: every entity that exists throughout is returned exactly once, in key order.
 */
class PagingUnderConcurrentWritesTest {
  private static final int PARTITIONS = 60;
  private static final int PER_PARTITION = 100;

  @DatabaseTest
  void everyStableEntityExactlyOnceInKeyOrder(TableService service) throws Exception {
    readWhileWriting(service, "stable eq true or stable eq false");
  }

  @DatabaseTest({
    TestDatabase.Kind.H2,
    TestDatabase.Kind.POSTGRESQL,
    TestDatabase.Kind.POSTGRESQL_PROPERTY_INDEX,
    TestDatabase.Kind.POSTGRESQL_SCALAR_STORE
  })
  void everyStableEntityExactlyOnceInKeyOrderThroughAnEquality(TableService service)
      throws Exception {
    List<String> seen = readWhileWriting(service, "stable eq true");
    assertThat(seen).hasSize(PARTITIONS * PER_PARTITION / 2);
  }

  /** Reads every page of the filter while another thread writes; returns the keys read, checked. */
  private static List<String> readWhileWriting(TableService service, String filter)
      throws Exception {
    service.createTable("paging");
    TableClient table = service.tableClient("paging");
    for (int p = 0; p < PARTITIONS; p++) {
      List<TableOperation> batch = new ArrayList<>();
      for (int r = 0; r < PER_PARTITION; r++) {
        // Even rows are stable; odd rows may be deleted by the writer.
        batch.add(
            TableOperation.insert(
                TableEntity.builder(partition(p), row(r)).put("stable", r % 2 == 0).build()));
      }
      table.submitTransaction(batch);
    }

    AtomicBoolean reading = new AtomicBoolean(true);
    AtomicInteger writes = new AtomicInteger();
    Thread writer =
        Thread.ofPlatform()
            .start(
                () -> {
                  ThreadLocalRandom random = ThreadLocalRandom.current();
                  while (reading.get()) {
                    String partition = partition(random.nextInt(PARTITIONS));
                    int r = random.nextInt(PER_PARTITION);
                    switch (random.nextInt(3)) {
                      case 0 ->
                          table.upsertReplace(
                              TableEntity.builder(partition, row(r) + "x")
                                  .put("stable", false)
                                  .build());
                      case 1 -> {
                        if (r % 2 == 1) {
                          try {
                            table.delete(partition, row(r), "*");
                          } catch (dev.trestle.TableException alreadyGone) {
                            // deleted earlier
                          }
                        }
                      }
                      default -> {
                        if (r % 2 == 0) {
                          table.merge(
                              TableEntity.builder(partition, row(r)).put("touched", true).build(),
                              "*");
                        }
                      }
                    }
                    writes.incrementAndGet();
                  }
                });

    List<String> seen = new ArrayList<>();
    try {
      EntityQuery query = EntityQuery.filter(filter).withTop(97);
      while (true) {
        EntityPage page = table.query(query);
        page.entities().forEach(e -> seen.add(e.partitionKey() + "/" + e.rowKey()));
        if (page.next().isEmpty()) {
          break;
        }
        query = query.withContinuation(page.next().get());
      }
    } finally {
      reading.set(false);
      writer.join();
    }

    Set<String> unique = new HashSet<>(seen);
    assertThat(unique).as("no entity twice").hasSize(seen.size());
    assertThat(seen).as("key order").isSortedAccordingTo(String::compareTo);
    for (int p = 0; p < PARTITIONS; p++) {
      for (int r = 0; r < PER_PARTITION; r += 2) {
        assertThat(unique).as("stable entity present").contains(partition(p) + "/" + row(r));
      }
    }
    assertThat(writes.get()).as("the writer ran during the scan").isPositive();
    return seen;
  }

  private static String partition(int p) {
    return String.format("part%03d", p);
  }

  private static String row(int r) {
    return String.format("row%03d", r);
  }
}
