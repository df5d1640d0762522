package dev.trestle.store;

import static dev.trestle.testing.ScalarStoreCheck.assertConsistent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.EntityQuery;
import dev.trestle.RawEntity;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.TimeToLive;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Every write path keeps each entity's scalar row (PostgreSQL's scalar store, where the database
 * has one) equal to {@code trestle_scalars(properties)}, deletes included, and leaves no orphan:
 * checked after each kind of write, failed ones too. On H2, which has no scalar store, the same
 * writes just run.
 */
class ScalarStoreWritesTest {
  private final FakeClock clock = new FakeClock();

  private static TableEntity entity(String pk, String rk, Object value) {
    TableEntity.Builder builder = TableEntity.builder(pk, rk);
    switch (value) {
      case Integer i -> builder.put("V", i);
      case String s -> builder.put("V", s);
      case Double d -> builder.put("V", d);
      case Boolean b -> builder.put("V", b);
      default -> throw new IllegalArgumentException(value.toString());
    }
    return builder.put("Long", "x".repeat(100)).put("At", Instant.EPOCH).build();
  }

  private static TableEntity allTypes(String pk, String rk) {
    return TableEntity.builder(pk, rk)
        .put("S", "short")
        .put("SLong", "\uF900".repeat(40) + "a".repeat(30))
        .put("I", 1)
        .put("L", Long.MAX_VALUE)
        .put("D", Double.NaN)
        .put("B", true)
        .put("T", Instant.parse("2026-11-27T00:00:00Z"))
        .put("G", UUID.randomUUID())
        .put("X", new byte[40])
        .build();
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  void everySingleEntityOperationKeepsTheScalarRow(TableService service, TestDatabase database) {
    String account = service.accountName();
    service.createTable("single");
    TableClient table = service.tableClient("single");
    TableEntity inserted = table.insert(allTypes("p", "a"));
    assertConsistent(database, account);
    table.insert(TableEntity.builder("p", "empty").build());
    assertConsistent(database, account);
    assertThatThrownBy(() -> table.insert(entity("p", "a", 1))).isInstanceOf(TableException.class);
    assertConsistent(database, account);

    table.upsertReplace(entity("p", "a", "replaced"));
    table.upsertReplace(entity("p", "new", 2));
    assertConsistent(database, account);
    table.upsertMerge(entity("p", "a", 3.5)); // V changes type: String to Double
    table.upsertMerge(entity("p", "merged", true));
    assertConsistent(database, account);

    TableEntity current = table.get("p", "a");
    table.update(entity("p", "a", 4), current.etag());
    assertThatThrownBy(() -> table.update(entity("p", "a", 5), inserted.etag()))
        .isInstanceOf(TableException.class);
    table.update(entity("p", "new", "updated"), "*");
    assertConsistent(database, account);
    current = table.get("p", "a");
    table.merge(TableEntity.builder("p", "a").put("V", false).build(), current.etag());
    table.merge(TableEntity.builder("p", "new").put("Extra", 7L).build(), "*");
    assertConsistent(database, account);

    current = table.get("p", "a");
    table.delete("p", "a", current.etag());
    table.delete("p", "new", "*");
    assertThatThrownBy(() -> table.delete("p", "gone", "*")).isInstanceOf(TableException.class);
    assertConsistent(database, account);
    assertThat(table.query(EntityQuery.all()).entities()).hasSize(2);
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  void batchesOfEveryKindKeepTheScalarRowAndAFailedOneChangesNothing(
      TableService service, TestDatabase database) {
    String account = service.accountName();
    service.createTable("batch");
    TableClient table = service.tableClient("batch");
    List<TableOperation> inserts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      inserts.add(TableOperation.insert(allTypes("p", "r" + i)));
    }
    table.submitTransaction(inserts); // one multi-row insert
    assertConsistent(database, account);

    TableEntity r1 = table.get("p", "r1");
    table.submitTransaction(
        List.of(
            TableOperation.insert(entity("p", "fresh", 1)),
            TableOperation.update(entity("p", "r0", "x"), "*"),
            TableOperation.merge(entity("p", "r1", 2.5), r1.etag()),
            TableOperation.upsertReplace(entity("p", "r2", true)),
            TableOperation.upsertMerge(entity("p", "r3", 9)),
            TableOperation.upsertMerge(entity("p", "brandnew", 9)),
            TableOperation.delete("p", "r4", "*")));
    assertConsistent(database, account);

    assertThatThrownBy(
            () ->
                table.submitTransaction(
                    List.of(
                        TableOperation.update(entity("p", "r5", "rolled back"), "*"),
                        TableOperation.delete("p", "r6", "*"),
                        TableOperation.insert(entity("p", "another", 1)),
                        TableOperation.insert(entity("p", "r7", 1)))))
        .isInstanceOf(TableException.class);
    assertConsistent(database, account);
    assertThat(table.get("p", "r5").properties()).doesNotContainKey("V");
    assertThat(table.extensions().exists("p", "r6")).isTrue();

    assertThatThrownBy(
            () ->
                table.submitTransaction(
                    List.of(
                        TableOperation.insert(entity("p", "new1", 1)),
                        TableOperation.insert(entity("p", "r8", 1)))))
        .isInstanceOf(TableException.class);
    assertConsistent(database, account);
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  @MultiShardWrites("bulk writes, copies and bulk deletes span partitions")
  void importsCopiesBulkDeletesAndTableDropsKeepTheScalarStore(
      TableService service, TestDatabase database) {
    String account = service.accountName();
    service.createTable("source");
    service.createTable("target");
    try (BulkWriter writer =
        service.bulkWriter(
            "source", BulkWriteOptions.defaults().withMode(BulkWriteOptions.Mode.INSERT))) {
      for (int i = 0; i < 250; i++) {
        writer.add(i % 2 == 0 ? allTypes("p" + i % 7, "r" + i) : entity("p" + i % 7, "r" + i, i));
      }
    }
    assertConsistent(database, account);
    try (BulkWriter writer = service.bulkWriter("source", BulkWriteOptions.defaults())) {
      for (int i = 0; i < 120; i++) {
        writer.add(entity("p" + i % 7, "r" + i, "replaced " + i)); // replaces, types change
      }
    }
    assertConsistent(database, account);

    List<RawEntity> rows = new ArrayList<>();
    service.readRawEntities("source", null, null, rows::add);
    try (BulkWriter writer =
        service.bulkWriter("target", BulkWriteOptions.defaults().withKeepTimestamps(true))) {
      for (RawEntity row : rows) {
        writer.addRaw(row); // stored rows passed through
      }
    }
    try (BulkWriter writer =
        service.bulkWriter("target", BulkWriteOptions.defaults().withKeepTimestamps(true))) {
      for (RawEntity row : rows.subList(0, 100)) {
        writer.addRaw(row); // a resumed copy writes over what it wrote
      }
    }
    assertConsistent(database, account);
    assertThat(service.tableClient("target").extensions().count((String) null)).isEqualTo(250);

    TableClient target = service.tableClient("target");
    assertThat(target.extensions().deletePartition("p0")).isPositive();
    target.extensions().deleteWhere("V eq 'replaced 1'");
    assertConsistent(database, account);
    target.extensions().truncate();
    assertConsistent(database, account);

    service.deleteTable("source"); // its scalar rows go with it: assertConsistent counts orphans
    assertConsistent(database, account);
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  @MultiShardWrites("the expiry sweep deletes across partitions")
  void expiryRewritesAndSweepsKeepTheScalarStore(TestDatabase database) {
    try (TableService service = ClockedServices.open(database, clock, true)) {
      String account = service.accountName();
      service.createTable("ttl");
      TableClient table = service.tableClient("ttl");
      table.extensions().timeToLive(TimeToLive.of(Duration.ofSeconds(60)));
      for (int i = 0; i < 10; i++) {
        table.insert(entity("p" + i % 2, "r" + i, i));
      }
      clock.advance(Duration.ofSeconds(61));
      table.insert(entity("p0", "r0", "over an expired one"));
      table.upsertReplace(entity("p0", "r2", 1.5));
      table.upsertMerge(entity("p1", "r1", 2.5));
      try (BulkWriter writer =
          service.bulkWriter(
              "ttl", BulkWriteOptions.defaults().withMode(BulkWriteOptions.Mode.INSERT))) {
        writer.add(entity("p1", "r3", "bulk over an expired one"));
      }
      assertConsistent(database, account);
      assertThat(service.expirySweep().runOnce(100)).isPositive();
      assertConsistent(database, account);
    }
  }
}
