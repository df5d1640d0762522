package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.EntityQuery;
import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.HandWrittenRows;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

class BulkWriterTest {

  static TableEntity everyType(String pk, String rk, Instant timestamp) {
    return TableEntity.builder(pk, rk)
        .put("S", "x\u0000y \uD83D\uDE00")
        .put("I32", Integer.MIN_VALUE)
        .put("I64", Long.MAX_VALUE)
        .put("D", Double.NaN)
        .put("B", true)
        .put("T", Instant.parse("2024-01-02T03:04:05.1234567Z"))
        .put("G", UUID.fromString("00000000-0000-0000-0000-0000000000ab"))
        .put("Bin", new byte[] {0, 1, (byte) 255})
        .timestamp(timestamp)
        .build();
  }

  @DatabaseTest
  @MultiShardWrites(
      "a bulk load commits rows of several partitions together, as one multi-row insert")
  void writesEveryTypeExactlyAcrossBatchesAndKeepsTimestamps(TableService service) {
    service.createTable("bulk");
    Instant ts = Instant.parse("2020-05-06T07:08:09.1234567Z");
    List<Long> commits = new ArrayList<>();
    try (BulkWriter writer =
        service.bulkWriter(
            "bulk",
            BulkWriteOptions.defaults()
                .withKeepTimestamps(true)
                .withBatchSize(250)
                .withListener((total, last) -> commits.add(total)))) {
      for (int i = 0; i < 1_001; i++) {
        writer.add(everyType("p" + (i / 300), String.format("%05d", i), ts));
      }
    }
    assertThat(commits).containsExactly(250L, 500L, 750L, 1000L, 1001L);
    List<TableEntity> read = new ArrayList<>();
    service.tableClient("bulk").listEntities(EntityQuery.all()).forEach(read::add);
    assertThat(read).hasSize(1_001);
    TableEntity first = read.getFirst();
    assertThat(first.timestamp()).isEqualTo(ts);
    assertThat(first.properties())
        .containsExactlyInAnyOrderEntriesOf(everyType("p0", "00000", ts).properties());
  }

  @DatabaseTest
  void pipelinedCommitsInOrderAndTellsTheListenerOnTheCallersThread(TableService service) {
    service.createTable("bulk");
    List<Long> commits = new ArrayList<>();
    Thread caller = Thread.currentThread();
    try (BulkWriter writer =
        service.bulkWriter(
            "bulk",
            BulkWriteOptions.defaults()
                .withBatchSize(100)
                .withPipelined(true)
                .withListener(
                    (total, last) -> {
                      assertThat(Thread.currentThread()).isSameAs(caller);
                      commits.add(total);
                    }))) {
      for (int i = 0; i < 1_000; i++) {
        writer.add(TableEntity.builder("p", String.format("%04d", i)).put("v", i % 3).build());
        writer.add(TableEntity.builder("p", String.format("%04d", i)).put("v", i).build());
      }
    }
    assertThat(commits).isSorted().endsWith(2_000L);
    List<TableEntity> read = new ArrayList<>();
    service.tableClient("bulk").listEntities(EntityQuery.all()).forEach(read::add);
    assertThat(read).hasSize(1_000);
    assertThat(read)
        .allSatisfy(e -> assertThat(e.getInt32("v")).isEqualTo(Integer.parseInt(e.rowKey())));
  }

  @DatabaseTest
  void pipelinedKeysRepeatedAcrossBatchesEndWithTheLastWrite(TableService service) {
    service.createTable("bulk");
    try (BulkWriter writer =
        service.bulkWriter(
            "bulk", BulkWriteOptions.defaults().withBatchSize(100).withPipelined(true))) {
      for (int i = 0; i < 2_000; i++) {
        writer.add(TableEntity.builder("p", String.format("%03d", i % 150)).put("v", i).build());
      }
    }
    List<TableEntity> read = new ArrayList<>();
    service.tableClient("bulk").listEntities(EntityQuery.all()).forEach(read::add);
    assertThat(read).hasSize(150);
    assertThat(read)
        .allSatisfy(e -> assertThat(e.getInt32("v") % 150).isEqualTo(Integer.parseInt(e.rowKey())))
        .allSatisfy(e -> assertThat(e.getInt32("v")).isGreaterThanOrEqualTo(2_000 - 150));
  }

  @DatabaseTest
  void pipelinedInsertFailureKeepsOnlyTheBatchesBeforeIt(TableService service) {
    service.createTable("bulk");
    service.tableClient("bulk").insert(TableEntity.builder("p", "0250").build());
    BulkWriter writer =
        service.bulkWriter(
            "bulk",
            BulkWriteOptions.defaults()
                .withMode(BulkWriteOptions.Mode.INSERT)
                .withBatchSize(100)
                .withPipelined(true));
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 1_000; i++) {
                writer.add(TableEntity.builder("p", String.format("%04d", i)).build());
              }
              writer.flush();
            })
        .isInstanceOfSatisfying(
            TableException.class,
            e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.ENTITY_ALREADY_EXISTS));
    assertThat(writer.committed()).isEqualTo(200);
    List<TableEntity> read = new ArrayList<>();
    service.tableClient("bulk").listEntities(EntityQuery.all()).forEach(read::add);
    assertThat(read).hasSize(201);
    assertThat(read.getLast().rowKey()).isEqualTo("0250");
  }

  @DatabaseTest
  void replaceOverwritesAndTheLastOfDuplicateKeysWins(TableService service) {
    service.createTable("bulk");
    service.tableClient("bulk").insert(TableEntity.builder("p", "a").put("v", 1).build());
    try (BulkWriter writer = service.bulkWriter("bulk", BulkWriteOptions.defaults())) {
      writer.add(TableEntity.builder("p", "a").put("v", 2).build());
      writer.add(TableEntity.builder("p", "b").put("v", 3).build());
      writer.add(TableEntity.builder("p", "b").put("v", 4).build());
    }
    assertThat(service.tableClient("bulk").get("p", "a").getInt32("v")).isEqualTo(2);
    assertThat(service.tableClient("bulk").get("p", "b").getInt32("v")).isEqualTo(4);
    assertThat(service.tableClient("bulk").get("p", "a").timestamp())
        .isAfter(Instant.now().minusSeconds(60));
  }

  @DatabaseTest
  void insertModeRefusesAnExistingEntity(TableService service) {
    service.createTable("bulk");
    service.tableClient("bulk").insert(TableEntity.builder("p", "a").build());
    BulkWriter writer =
        service.bulkWriter(
            "bulk", BulkWriteOptions.defaults().withMode(BulkWriteOptions.Mode.INSERT));
    writer.add(TableEntity.builder("p", "a").build());
    assertThatThrownBy(writer::flush)
        .isInstanceOfSatisfying(
            TableException.class,
            e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.ENTITY_ALREADY_EXISTS));
  }

  @DatabaseTest
  void aMissingTableIsTableNotFound(TableService service) {
    assertThatThrownBy(() -> service.bulkWriter("nothere", BulkWriteOptions.defaults()))
        .isInstanceOfSatisfying(
            TableException.class,
            e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.TABLE_NOT_FOUND));
  }

  @DatabaseTest
  void aCopiedRowThatNoTrestleWriteCouldStoreFailsNamingItAndIsNotWritten(
      TableService service, TestDatabase database) throws Exception {
    service.createTable("source");
    service.createTable("target");
    service.tableClient("source").insert(TableEntity.builder("p", "good").put("v", 1).build());
    HandWrittenRows.insert(
        database, service.accountName(), "source", "p", "bad#key", MalformedRowTest.TICKS, "{}");
    List<RawEntity> rows = new ArrayList<>();
    service.readRawEntities("source", null, null, rows::add);
    assertThat(rows).extracting(RawEntity::rowKey).containsExactly("bad#key", "good");

    try (BulkWriter writer =
        service.bulkWriter("target", BulkWriteOptions.defaults().withKeepTimestamps(true))) {
      writer.addRaw(rows.get(1));
      assertMalformed(() -> writer.addRaw(rows.get(0)), "RowKey 'bad#key' is malformed");
      assertMalformed(
          () -> writer.addRaw(new RawEntity("p", "old", -200_000_000_000_000_000L, "{}")),
          "its ticks -200000000000000000 are outside the DateTime range");
      assertMalformed(
          () ->
              writer.addRaw(
                  new RawEntity("p", "long", MalformedRowTest.TICKS, "x".repeat(5 << 20))),
          "is longer than any entity");
    }

    assertThat(service.tableClient("target").listEntities())
        .extracting(TableEntity::rowKey)
        .containsExactly("good");
    assertThat(service.tableClient("target").get("p", "good").getInt32("v")).isEqualTo(1);
  }

  @DatabaseTest
  void aCopiedRowsVersionIsNotCheckedWhenTheWriteGivesItsOwn(TableService service) {
    service.createTable("target");
    try (BulkWriter writer = service.bulkWriter("target", BulkWriteOptions.defaults())) {
      writer.addRaw(new RawEntity("p", "old", -200_000_000_000_000_000L, "{}"));
    }
    assertThat(service.tableClient("target").get("p", "old").timestamp())
        .isAfter(Instant.now().minusSeconds(60));
  }

  private static void assertMalformed(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable add, String words) {
    assertThatThrownBy(add)
        .isInstanceOfSatisfying(
            TableException.class,
            e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.INTERNAL_ERROR))
        .hasMessageContaining("copied into table 'target'")
        .hasMessageContaining(words);
  }
}
