package dev.trestle.store.internal.read;

import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.store.internal.codec.ContinuationTokens;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.DatabaseType;
import dev.trestle.store.internal.database.PageBudget;
import dev.trestle.store.internal.database.PageReader;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoredPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.ResultQuery;
import org.jooq.impl.DSL;

/**
 * One page of a query, read by keyset over (PartitionKey, RowKey) in chunks of the key range: each
 * step first finds the key {@code chunk} rows ahead (an index-only walk, limited by the filter's
 * own key conditions), then reads the matches up to that key. The page ends when it is full, the
 * table ends, or the time budget is spent; the continuation then says where the scan stopped, so
 * every match is returned exactly once across pages, also while other clients write. Each step
 * makes progress, so even a page with no matches moves on. A database with a better way reads pages
 * its own way ({@link DatabaseType#pageReader}).
 */
public final class EntityScan {
  /** Reads pages in key-range chunks. */
  public static final PageReader IN_CHUNKS =
      (sql, scan, top, resume) -> new EntityScan(scan).page(sql, top, resume);

  /**
   * Rows of the first batch, before any entity's size is known: enough for most partition and
   * key-range pages in one statement. H2 runs in this process and hands out the values it holds, so
   * the rows past a page's bytes, never decoded, cost little.
   */
  private static final int FIRST_BATCH = 64;

  private final ScanRequest scan;
  private final Store store;
  private final QueryLimits limits;
  // table_id is fixed by the WHERE clause, so this is key order; naming it tells H2 the key index
  // is sorted.
  private static final List<Field<?>> KEY_ORDER = List.of(ENTITY_TABLE, PARTITION_KEY, ROW_KEY);

  EntityScan(ScanRequest scan) {
    this.scan = scan;
    this.store = scan.store();
    this.limits = scan.limits();
  }

  /**
   * Reads one page of at most {@code top} entities after {@code resume} (null: from the start),
   * through the context's connection.
   */
  StoredPage page(DSLContext sql, int top, Condition resume) {
    // Most pages end within the first chunk and read matches with one statement, which sees one
    // consistent
    // state by itself. A page that needs more statements (chunks or batches) is read again in one
    // snapshot, so
    // that it never shows half of an entity-group transaction committed between two of its
    // statements.
    StoredPage page = page(sql, top, resume, false);
    return page != null
        ? page
        : store.groups.read(
            scan.tableId(),
            () -> store.inSnapshot(sql, snapshot -> page(snapshot, top, resume, true)));
  }

  /**
   * The page, or null when it needs more than one statement of matches and is not read in a
   * snapshot.
   */
  private StoredPage page(DSLContext sql, int top, Condition resume, boolean inSnapshot) {
    PageBudget budget = scan.budget().restarted();
    List<StoredEntity> entities = new ArrayList<>();
    Condition after = resume == null ? DSL.trueCondition() : resume;
    int chunk = limits.firstChunk();
    while (true) {
      long chunkStart = System.nanoTime();
      Record2<String, String> bound = chunkEnd(sql, after, chunk);
      Condition chunkEnd =
          bound == null
              ? DSL.trueCondition()
              : DSL.row(PARTITION_KEY, ROW_KEY).le(bound.value1(), bound.value2());
      // The chunk's matches, in batches that the page's memory budget sizes.
      Condition from = after;
      while (true) {
        int wanted = top - entities.size();
        int batch = budget.batch(wanted + 1, FIRST_BATCH);
        List<? extends Record> rows = matches(sql, from.and(chunkEnd), batch);
        for (int i = 0; i < Math.min(wanted, rows.size()); i++) {
          Record row = rows.get(i);
          budget.read(scan.storedBytes(row.get(store.dialect.propertiesColumn())));
          entities.add(toEntity(row));
          if (budget.full()) {
            return pageEndingAfter(entities, entities.get(entities.size() - 1));
          }
        }
        if (rows.size() > wanted) {
          return pageEndingAfter(entities, entities.get(entities.size() - 1));
        }
        if (rows.size() < batch) {
          break;
        }
        if (!inSnapshot) {
          return null;
        }
        Record last = rows.get(rows.size() - 1);
        from = DSL.row(PARTITION_KEY, ROW_KEY).gt(last.get(PARTITION_KEY), last.get(ROW_KEY));
      }
      if (bound == null) {
        return new StoredPage(entities, Optional.empty());
      }
      if (budget.timeIsUp()) {
        return new StoredPage(
            entities,
            ContinuationTokens.after(
                store.dialect.decodeText(bound.value1()),
                store.dialect.decodeText(bound.value2())));
      }
      if (!inSnapshot) {
        return null;
      }
      after = DSL.row(PARTITION_KEY, ROW_KEY).gt(bound.value1(), bound.value2());
      chunk =
          nextChunk(
              chunk, System.nanoTime() - chunkStart, budget.remainingMillis() * 1_000_000L, limits);
    }
  }

  /**
   * The next chunk: twice the last, at most the largest, and no more rows than the last chunk's
   * pace reads in half the time the page has left, so that one chunk of a slow filter over a large
   * table cannot carry the page past its budget; never below a tenth of the first chunk, so that
   * the page still advances.
   */
  static int nextChunk(int chunk, long tookNanos, long remainingNanos, QueryLimits limits) {
    long doubled = Math.min((long) chunk * 2, limits.maxChunk());
    long inTime = (long) ((double) chunk * (remainingNanos / 2.0) / Math.max(1, tookNanos));
    long floor = Math.max(1, limits.firstChunk() / 10);
    return (int) Math.max(floor, Math.min(doubled, inTime));
  }

  /**
   * The stored keys of the row {@code chunk} rows into the key range, or null when fewer rows
   * remain.
   */
  private Record2<String, String> chunkEnd(DSLContext sql, Condition after, int chunk) {
    return chunkEndQuery(sql, after, chunk).fetchOne();
  }

  /**
   * The keys {@code chunk} rows ahead within the filter's key range: walks the primary-key index
   * only.
   */
  ResultQuery<Record2<String, String>> chunkEndQuery(DSLContext sql, Condition after, int chunk) {
    return sql.select(PARTITION_KEY, ROW_KEY)
        .from(store.dialect.entitiesForReading("trestle_entity"))
        .where(ENTITY_TABLE.eq(scan.tableId()).and(scan.keyRange()).and(after))
        .orderBy(KEY_ORDER)
        .offset(DSL.inline(chunk - 1))
        .limit(DSL.inline(1));
  }

  private List<? extends Record> matches(DSLContext sql, Condition within, int limit) {
    return matchesQuery(sql, within, limit).fetch();
  }

  /** The matching entities of one chunk, in key order. */
  ResultQuery<? extends Record> matchesQuery(DSLContext sql, Condition within, int limit) {
    Field<Object> properties = store.dialect.propertiesColumn();
    return sql.select(PARTITION_KEY, ROW_KEY, TICKS, properties)
        .from(store.dialect.entitiesForReading("trestle_entity"))
        .where(ENTITY_TABLE.eq(scan.tableId()).and(scan.filter()).and(within))
        .orderBy(KEY_ORDER)
        .limit(DSL.inline(limit));
  }

  private static StoredPage pageEndingAfter(List<StoredEntity> entities, StoredEntity last) {
    return new StoredPage(entities, ContinuationTokens.after(last.partitionKey(), last.rowKey()));
  }

  private StoredEntity toEntity(Record row) {
    return scan.entity(
        row.get(PARTITION_KEY),
        row.get(ROW_KEY),
        row.get(TICKS),
        row.get(store.dialect.propertiesColumn()));
  }
}
