package dev.trestle.store.internal.ext;

import static dev.trestle.store.internal.database.Schema.ENTITIES;
import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.trestle.ExpirySweep;
import dev.trestle.store.internal.database.Expiry;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.write.TableDeletion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Row2;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Removes expired entities (see {@link Expiry}) with bounded work: each run reads at most a batch
 * of one table's rows in key order from where the previous run stopped, and deletes the expired
 * ones one partition and one transaction at a time. A delete names the exact version judged
 * expired, so an entity written again since (a new version) is never removed, and servers sweeping
 * the same table at once only find rows already gone.
 */
public final class ExpirySweeper implements ExpirySweep {
  private static final Field<Long> TABLE_ID = field(name("id"), SQLDataType.BIGINT);

  private final Store store;

  /** Where the next run resumes: the table, and the last keys read from it (null: its start). */
  private volatile Position position = new Position(0, null, null);

  private record Position(long tableId, String partitionKey, String rowKey) {}

  /** Runs between reading a batch and deleting its expired rows: a test's rewrite. */
  private final Runnable betweenReadAndDelete;

  public ExpirySweeper(Store store) {
    this(store, () -> {});
  }

  ExpirySweeper(Store store, Runnable betweenReadAndDelete) {
    this.store = store;
    this.betweenReadAndDelete = betweenReadAndDelete;
  }

  @Override
  public synchronized long runOnce(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    long abandoned = new TableDeletion(store).finishAbandoned();
    if (abandoned > 0) {
      return abandoned;
    }
    return store.unhurried(sql -> sweep(sql, batchSize));
  }

  private long sweep(DSLContext sql, int batchSize) {
    Position at = position;
    Record2<Long, Long> table = nextTable(sql, at.tableId(), at.partitionKey() == null);
    if (table == null) {
      position = new Position(0, null, null);
      return 0;
    }
    long tableId = table.value1();
    Expiry expiry = new Expiry(true, table.value2());
    boolean resumeHere = tableId == at.tableId() && at.partitionKey() != null;
    Condition after =
        resumeHere
            ? DSL.row(PARTITION_KEY, ROW_KEY).gt(at.partitionKey(), at.rowKey())
            : DSL.trueCondition();
    Field<Object> properties = store.dialect.propertiesColumn();
    List<? extends Record> rows =
        sql.select(PARTITION_KEY, ROW_KEY, TICKS, properties)
            .from(ENTITIES)
            .where(ENTITY_TABLE.eq(tableId).and(after))
            .orderBy(PARTITION_KEY, ROW_KEY)
            .limit(DSL.inline(batchSize))
            .fetch();
    long now = store.versions.time();
    Map<String, List<Row2<String, Long>>> expired = new LinkedHashMap<>();
    for (Record row : rows) {
      String document = store.dialect.propertiesText(row.get(properties));
      if (expiry.expired(store.properties, row.get(TICKS), document, now)) {
        expired
            .computeIfAbsent(row.get(PARTITION_KEY), p -> new ArrayList<>())
            .add(DSL.row(row.get(ROW_KEY), row.get(TICKS)));
      }
    }
    if (rows.size() < batchSize) {
      position = new Position(tableId, null, null); // this table is done: the next one next time
    } else {
      Record last = rows.get(rows.size() - 1);
      position = new Position(tableId, last.get(PARTITION_KEY), last.get(ROW_KEY));
    }
    betweenReadAndDelete.run();
    long deleted = 0;
    for (Map.Entry<String, List<Row2<String, Long>>> partition : expired.entrySet()) {
      deleted += delete(sql, tableId, partition.getKey(), partition.getValue());
    }
    return deleted;
  }

  /**
   * The table with TTL to sweep: {@code tableId} itself unless {@code finished}, else the next one
   * by id, wrapping around; its id and default.
   */
  private static Record2<Long, Long> nextTable(DSLContext sql, long tableId, boolean finished) {
    Condition withTtl = Schema.TTL_ENABLED.isTrue();
    Record2<Long, Long> next =
        sql.select(TABLE_ID, Schema.DEFAULT_TTL)
            .from(Schema.TABLES)
            .where(withTtl.and(finished ? TABLE_ID.gt(tableId) : TABLE_ID.ge(tableId)))
            .orderBy(TABLE_ID)
            .limit(DSL.inline(1))
            .fetchOne();
    if (next != null || tableId == 0) {
      return next;
    }
    return sql.select(TABLE_ID, Schema.DEFAULT_TTL)
        .from(Schema.TABLES)
        .where(withTtl)
        .orderBy(TABLE_ID)
        .limit(DSL.inline(1))
        .fetchOne();
  }

  /**
   * Deletes exactly these versions of one partition in one transaction, those still expired under
   * the table's settings as they are now: an operator may have switched TTL off or lengthened the
   * default since they were read. The catalog row stays locked against updates to the commit, so a
   * setting changed meanwhile waits for the delete and one changed just before it is the one
   * applied.
   */
  private long delete(
      DSLContext connection, long tableId, String partitionKey, List<Row2<String, Long>> versions) {
    return store.groups.write(
        tableId,
        () ->
            store.inTransaction(
                connection,
                sql -> {
                  Condition alive =
                      Expiry.current(sql, store.dialect, tableId, true)
                          .alive(store.dialect, store.versions.time());
                  if (alive == null) {
                    return 0L; // the table is gone, or has no TTL any more: nothing expires
                  }
                  return (long)
                      sql.deleteFrom(ENTITIES)
                          .where(
                              ENTITY_TABLE.eq(tableId),
                              PARTITION_KEY.eq(partitionKey),
                              DSL.row(ROW_KEY, TICKS).in(versions),
                              DSL.not(alive))
                          .execute();
                }));
  }
}
