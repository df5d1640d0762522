package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@link TableService#readEntities} hands out exactly what the query pages give (every type, keys
 * in key order, Timestamps and ETags), across its chunks of 10,000 rows, after a key pair, and
 * stops when told.
 */
class BulkReadTest {
  private static final int ENTITIES = 10_503;

  private static List<TableEntity> load(TableService service) {
    service.createTable("source");
    Instant ts = Instant.parse("2021-02-03T04:05:06.7654321Z");
    try (BulkWriter writer =
        service.bulkWriter(
            "source",
            BulkWriteOptions.defaults()
                .withMode(BulkWriteOptions.Mode.INSERT)
                .withKeepTimestamps(true))) {
      for (int i = 0; i < ENTITIES; i++) {
        // keys whose UTF-16 order differs from their code-point order, so H2's stored form shows
        String partition = i % 7 == 0 ? "p\uD83D\uDE00" + (i / 1_000) : "p\uFFFD" + (i / 1_000);
        writer.add(
            TableEntity.builder(partition, String.format("r'%05d", i))
                .put("S", "text " + i)
                .put("I", i)
                .put("L", Long.MAX_VALUE - i)
                .put("D", i / 3.0)
                .put("B", i % 2 == 0)
                .put("T", ts.plusSeconds(i))
                .put("G", new UUID(i, -i))
                .put("Bin", new byte[] {(byte) i, 0, -1})
                .timestamp(ts.plusNanos(100L * i))
                .build());
      }
    }
    List<TableEntity> paged = new ArrayList<>();
    service.tableClient("source").listEntities(EntityQuery.all()).forEach(paged::add);
    assertThat(paged).hasSize(ENTITIES);
    return paged;
  }

  @DatabaseTest
  @MultiShardWrites("the bulk load that fills the table")
  void readsWhatThePagesGiveAcrossChunksResumesAfterAKeyPairAndStopsWhenTold(TableService service) {
    List<TableEntity> paged = load(service);
    List<TableEntity> read = new ArrayList<>();
    service.readEntities("source", null, null, read::add);
    assertThat(read).isEqualTo(paged);

    TableEntity after = paged.get(9_876);
    List<TableEntity> rest = new ArrayList<>();
    service.readEntities("source", after.partitionKey(), after.rowKey(), rest::add);
    assertThat(rest).isEqualTo(paged.subList(9_877, ENTITIES));

    List<TableEntity> stopped = new ArrayList<>();
    service.readEntities(
        "source",
        null,
        null,
        entity -> {
          stopped.add(entity);
          return stopped.size() < 10_001;
        });
    assertThat(stopped).isEqualTo(paged.subList(0, 10_001));
  }

  @DatabaseTest
  void aMissingTableIsTableNotFound(TableService service) {
    assertThatThrownBy(() -> service.readEntities("missing", null, null, e -> true))
        .isInstanceOfSatisfying(
            TableException.class,
            e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.TABLE_NOT_FOUND));
  }
}
