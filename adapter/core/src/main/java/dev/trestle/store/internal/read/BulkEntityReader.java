package dev.trestle.store.internal.read;

import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.TableEntity;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.TableLookup;
import java.util.function.Predicate;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.Record;
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

  /** Hands the entities after the stored key pair (null: from the start) to each, until false. */
  public void read(String afterPartitionKey, String afterRowKey, Predicate<TableEntity> each) {
    long tableId = store.onOneConnection(sql -> TableLookup.id(sql, account, tableName));
    Dialect dialect = store.dialect;
    String partitionKey = afterPartitionKey == null ? null : dialect.encodeText(afterPartitionKey);
    String rowKey = afterPartitionKey == null ? null : dialect.encodeText(afterRowKey);
    while (true) {
      Chunk chunk = chunk(tableId, partitionKey, rowKey, each);
      if (chunk.stopped() || chunk.rows() < CHUNK) {
        return;
      }
      partitionKey = chunk.lastPartitionKey();
      rowKey = chunk.lastRowKey();
    }
  }

  private record Chunk(int rows, boolean stopped, String lastPartitionKey, String lastRowKey) {}

  private Chunk chunk(
      long tableId, String partitionKey, String rowKey, Predicate<TableEntity> each) {
    Dialect dialect = store.dialect;
    Condition after =
        partitionKey == null
            ? DSL.trueCondition()
            : DSL.row(PARTITION_KEY, ROW_KEY).gt(partitionKey, rowKey);
    // autocommit off, so that PostgreSQL streams the rows through a cursor of FETCH_SIZE
    return store.inTransaction(
        sql -> {
          int rows = 0;
          String lastPartitionKey = null;
          String lastRowKey = null;
          try (Cursor<Record4<String, String, Long, Object>> cursor =
              sql.select(PARTITION_KEY, ROW_KEY, TICKS, dialect.propertiesColumn())
                  .from(dialect.entitiesForReading("trestle_entity"))
                  .where(ENTITY_TABLE.eq(tableId).and(after))
                  .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY)
                  .limit(DSL.inline(CHUNK))
                  .fetchSize(FETCH_SIZE)
                  .fetchLazy()) {
            for (Record row : cursor) {
              rows++;
              lastPartitionKey = row.get(PARTITION_KEY);
              lastRowKey = row.get(ROW_KEY);
              TableEntity entity =
                  new dev.trestle.store.internal.codec.StoredEntity(
                          dialect.decodeText(lastPartitionKey),
                          dialect.decodeText(lastRowKey),
                          row.get(TICKS),
                          dialect.propertiesText(row.get(dialect.propertiesColumn())),
                          store.properties)
                      .toEntity(null);
              if (!each.test(entity)) {
                return new Chunk(rows, true, lastPartitionKey, lastRowKey);
              }
            }
          }
          return new Chunk(rows, false, lastPartitionKey, lastRowKey);
        });
  }
}
