package dev.trestle.store.internal.ext;

import static dev.trestle.store.internal.database.Schema.ENTITIES;
import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;

import dev.trestle.TableExtensions.DeleteProgress;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.TableLookup;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Deletes many entities with one statement per partition (or per table), each in its own
 * transaction, so that nothing crosses a partition the way an entity-group transaction never does.
 * Runs unhurried: a statement deleting 100,000 rows rightly takes longer than a page. Where the
 * database guards multi-statement reads against half-committed groups (H2), the delete holds the
 * table's group guard through its commit, as a transaction does.
 */
final class BulkDelete {
  /** Partitions looked up per statement while deleting by filter. */
  private static final int PARTITIONS_PER_LOOKUP = 500;

  private final Store store;
  private final String account;
  private final String tableName;

  BulkDelete(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  long partition(String partitionKey) {
    return store.unhurried(
        connection -> {
          long tableId = TableLookup.id(connection, account, tableName);
          return delete(
              connection, tableId, PARTITION_KEY.eq(store.dialect.encodeText(partitionKey)));
        });
  }

  long all() {
    return store.unhurried(
        connection -> {
          long tableId = TableLookup.id(connection, account, tableName);
          return delete(connection, tableId, DSL.trueCondition());
        });
  }

  /**
   * The matching partitions a batch at a time in key order, then each partition's matches in one
   * transaction: the work is the matching rows, and a large delete shows its progress.
   */
  long where(Matching matching, DeleteProgress progress) {
    return store.unhurried(
        connection -> {
          IndexedTable table = IndexCatalogue.lookup(store, connection, account, tableName);
          Condition condition = matching.on(store, table);
          long total = 0;
          String after = null;
          while (true) {
            List<String> partitions =
                connection
                    .selectDistinct(PARTITION_KEY)
                    .from(store.dialect.entitiesForReading("trestle_entity"))
                    .where(
                        ENTITY_TABLE
                            .eq(table.id())
                            .and(condition)
                            .and(after == null ? DSL.trueCondition() : PARTITION_KEY.gt(after)))
                    .orderBy(PARTITION_KEY)
                    .limit(DSL.inline(PARTITIONS_PER_LOOKUP))
                    .fetch(PARTITION_KEY);
            for (String stored : partitions) {
              long deleted =
                  delete(connection, table.id(), PARTITION_KEY.eq(stored).and(condition));
              total += deleted;
              progress.partitionDeleted(store.dialect.decodeText(stored), deleted, total);
            }
            if (partitions.size() < PARTITIONS_PER_LOOKUP) {
              return total;
            }
            after = partitions.get(partitions.size() - 1);
          }
        });
  }

  private long delete(DSLContext connection, long tableId, Condition rows) {
    return store.groups.write(
        tableId,
        () ->
            store.inTransaction(
                connection,
                sql ->
                    (long)
                        sql.deleteFrom(ENTITIES)
                            .where(ENTITY_TABLE.eq(tableId).and(rows))
                            .execute()));
  }
}
