package dev.trestle.store.internal.read;

import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Expiry;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.Store;
import java.util.function.Predicate;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Record4;
import org.jooq.impl.DSL;

/**
 * A table's entities in key order for copies and exports: keyset chunks of {@value #CHUNK} rows,
 * each one statement streamed with a fetch size (a cursor on PostgreSQL, so memory stays bounded),
 * instead of query pages with their budget, filter and continuation machinery.
 */
public final class BulkEntityReader {
  static final int CHUNK = 10_000;
  private static final int FETCH_SIZE = 1_000;

  private final Store store;
  private final String account;
  private final String tableName;

  public BulkEntityReader(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  /** Hands the entities after the key pair (null: from the start) to each, until false. */
  public void read(String afterPartitionKey, String afterRowKey, Predicate<TableEntity> each) {
    Dialect dialect = store.dialect;
    walk(
        afterPartitionKey,
        afterRowKey,
        (partitionKey, rowKey, ticks, document) ->
            each.test(
                new StoredEntity(
                        dialect.decodeText(partitionKey),
                        dialect.decodeText(rowKey),
                        ticks,
                        document,
                        store.properties,
                        tableName)
                    .toEntity(null)));
  }

  /** As {@link #read}, each entity with its properties as the stored document. */
  public void readRaw(String afterPartitionKey, String afterRowKey, Predicate<RawEntity> each) {
    Dialect dialect = store.dialect;
    walk(
        afterPartitionKey,
        afterRowKey,
        (partitionKey, rowKey, ticks, document) ->
            each.test(
                new RawEntity(
                    dialect.decodeText(partitionKey),
                    dialect.decodeText(rowKey),
                    ticks,
                    document)));
  }

  /** One row as stored (keys encoded, properties as the document's text); false stops. */
  @FunctionalInterface
  private interface Rows {
    boolean row(String partitionKey, String rowKey, long ticks, String document);
  }

  private void walk(String afterPartitionKey, String afterRowKey, Rows each) {
    IndexedTable table =
        store.onOneConnection(sql -> IndexCatalogue.lookup(store, sql, account, tableName));
    long tableId = table.id();
    Expiry expiry = table.expiry();
    Dialect dialect = store.dialect;
    String partitionKey = afterPartitionKey == null ? null : dialect.encodeText(afterPartitionKey);
    String rowKey = afterPartitionKey == null ? null : dialect.encodeText(afterRowKey);
    while (true) {
      Chunk chunk = chunk(tableId, expiry, partitionKey, rowKey, each);
      if (chunk.stopped() || chunk.last()) {
        return;
      }
      partitionKey = chunk.lastPartitionKey();
      rowKey = chunk.lastRowKey();
    }
  }

  /** A chunk read: whether it was the table's last, or its reader stopped, and its last keys. */
  private record Chunk(boolean last, boolean stopped, String lastPartitionKey, String lastRowKey) {}

  private Chunk chunk(long tableId, Expiry expiry, String partitionKey, String rowKey, Rows each) {
    // expired entities are absent to every read; a table without TTL gets no condition
    Condition alive = expiry.alive(store.dialect, store.versions.time());
    Condition after =
        partitionKey == null
            ? DSL.trueCondition()
            : DSL.row(PARTITION_KEY, ROW_KEY).gt(partitionKey, rowKey);
    // autocommit off, so that PostgreSQL streams the rows through a cursor of FETCH_SIZE; no
    // silence limit, since the planner may sort a chunk before its first row
    return store.unhurried(
        context -> store.inTransaction(context, sql -> rows(sql, tableId, after, alive, each)));
  }

  /**
   * The chunk's rows, bounded above by the key {@value #CHUNK} rows ahead (an index-only walk):
   * with a LIMIT alone, PostgreSQL may read and sort the whole rest of the table for each chunk.
   */
  private Chunk rows(DSLContext sql, long tableId, Condition after, Condition alive, Rows each) {
    Dialect dialect = store.dialect;
    Record2<String, String> end =
        sql.select(PARTITION_KEY, ROW_KEY)
            .from(dialect.entitiesForReading("trestle_entity"))
            .where(ENTITY_TABLE.eq(tableId).and(after))
            .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY)
            .offset(DSL.inline(CHUNK - 1))
            .limit(DSL.inline(1))
            .fetchOne();
    Condition within =
        end == null
            ? after
            : after.and(DSL.row(PARTITION_KEY, ROW_KEY).le(end.value1(), end.value2()));
    String lastPartitionKey = null;
    String lastRowKey = null;
    try (Cursor<Record4<String, String, Long, Object>> cursor =
        sql.select(PARTITION_KEY, ROW_KEY, TICKS, dialect.propertiesColumn())
            .from(dialect.entitiesForReading("trestle_entity"))
            .where(
                alive == null
                    ? ENTITY_TABLE.eq(tableId).and(within)
                    : ENTITY_TABLE.eq(tableId).and(within).and(alive))
            .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY)
            .fetchSize(FETCH_SIZE)
            .fetchLazy()) {
      for (Record row : cursor) {
        lastPartitionKey = row.get(PARTITION_KEY);
        lastRowKey = row.get(ROW_KEY);
        if (!each.row(
            lastPartitionKey,
            lastRowKey,
            row.get(TICKS),
            dialect.propertiesText(row.get(dialect.propertiesColumn())))) {
          return new Chunk(end == null, true, lastPartitionKey, lastRowKey);
        }
      }
    }
    // rows deleted meanwhile may end the chunk early: the next one starts after its bound
    return end == null
        ? new Chunk(true, false, lastPartitionKey, lastRowKey)
        : new Chunk(false, false, end.value1(), end.value2());
  }
}
