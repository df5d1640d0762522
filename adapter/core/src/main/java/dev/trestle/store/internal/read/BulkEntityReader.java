package dev.trestle.store.internal.read;

import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * instead of query pages with their budget, filter and continuation machinery. The next chunks are
 * read (and decoded) on connections and threads of their own while the caller takes the current
 * one, {@value #READERS} chunks at once, each held to a small queue; the caller still gets the rows
 * in key order, so that what it has taken is always the table up to a key.
 */
public final class BulkEntityReader {
  static final int CHUNK = 10_000;

  /** Chunks read at once: the one the caller takes and the next. */
  static final int READERS = 2;

  /**
   * Rows, and characters of their documents, a chunk read ahead may hold before its reading waits:
   * enough to keep the caller busy while the chunk's next rows come, few enough to keep the live
   * heap (and so each garbage collection) small.
   */
  private static final int QUEUED_ROWS = 2_000;

  private static final long QUEUED_CHARS = 8L << 20;

  private static final int FETCH_SIZE = 1_000;

  /** Rows handed to the caller at once, unless their documents reach {@link #BLOCK_CHARS}. */
  private static final int BLOCK = 250;

  private static final long BLOCK_CHARS = 1L << 20;

  private final Store store;
  private final String account;
  private final String tableName;
  private final int chunk;
  private final int readers;

  /**
   * A reader on {@code store}: as many chunks at once as leave a connection of its pool to others,
   * since a chunk read ahead holds its connection while the caller is slow to take it.
   */
  public BulkEntityReader(Store store, String account, String tableName) {
    this(
        store,
        account,
        tableName,
        CHUNK,
        Math.max(1, Math.min(READERS, store.connectionsAtOnce() - 1)));
  }

  /** A reader of chunks of {@code chunk} rows, {@code readers} read at once (tests). */
  BulkEntityReader(Store store, String account, String tableName, int chunk, int readers) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
    this.chunk = chunk;
    this.readers = readers;
  }

  /** Hands the entities after the key pair (null: from the start) to each, until false. */
  public void read(String afterPartitionKey, String afterRowKey, Predicate<TableEntity> each) {
    Dialect dialect = store.dialect;
    walk(
        afterPartitionKey,
        afterRowKey,
        (partitionKey, rowKey, ticks, document) ->
            new StoredEntity(
                    dialect.decodeText(partitionKey),
                    dialect.decodeText(rowKey),
                    ticks,
                    document,
                    store.properties,
                    tableName)
                .toEntity(null),
        each);
  }

  /** As {@link #read}, each entity with its properties as the stored document. */
  public void readRaw(String afterPartitionKey, String afterRowKey, Predicate<RawEntity> each) {
    Dialect dialect = store.dialect;
    walk(
        afterPartitionKey,
        afterRowKey,
        (partitionKey, rowKey, ticks, document) ->
            new RawEntity(
                dialect.decodeText(partitionKey), dialect.decodeText(rowKey), ticks, document),
        each);
  }

  /** One row as stored (keys encoded, properties as the document's text), as handed out. */
  @FunctionalInterface
  private interface Rows<T> {
    T row(String partitionKey, String rowKey, long ticks, String document);
  }

  /** Where a chunk starts: after the key pair (null: at the table's start), or past the end. */
  private record Start(String partitionKey, String rowKey, boolean pastEnd) {
    static final Start PAST_END = new Start(null, null, true);
  }

  /** A chunk being read: its rows as they come, and where the next chunk starts. */
  private record Reading<T>(ChunkQueue<T> rows, CompletableFuture<Start> next) {}

  private <T> void walk(
      String afterPartitionKey, String afterRowKey, Rows<T> decode, Predicate<T> each) {
    IndexedTable table =
        store.onOneConnection(sql -> IndexCatalogue.lookup(store, sql, account, tableName));
    Dialect dialect = store.dialect;
    CompletableFuture<Start> start =
        CompletableFuture.completedFuture(
            afterPartitionKey == null
                ? new Start(null, null, false)
                : new Start(
                    dialect.encodeText(afterPartitionKey), dialect.encodeText(afterRowKey), false));
    ExecutorService threads =
        Executors.newFixedThreadPool(
            readers,
            Thread.ofPlatform().daemon().name("trestle-read-" + tableName + "-", 1).factory());
    ArrayDeque<Reading<T>> ahead = new ArrayDeque<>();
    try {
      for (int i = 0; i < readers; i++) {
        ahead.add(launch(threads, table, start, decode));
        start = ahead.peekLast().next();
      }
      while (true) {
        ChunkQueue<T> rows = ahead.peek().rows();
        for (List<T> block = rows.take(); block != null; block = rows.take()) {
          for (T row : block) {
            if (!each.test(row)) {
              return;
            }
          }
        }
        if (rows.last()) {
          return;
        }
        ahead.poll();
        ahead.add(launch(threads, table, start, decode));
        start = ahead.peekLast().next();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading table " + tableName, e);
    } finally {
      ahead.forEach(reading -> reading.rows().close());
      threads.shutdown();
      awaitEnd(threads);
    }
  }

  /**
   * Reads the chunk starting where {@code start} says, once it is known, on a thread of its own.
   */
  private <T> Reading<T> launch(
      ExecutorService threads, IndexedTable table, CompletableFuture<Start> start, Rows<T> decode) {
    Reading<T> reading =
        new Reading<>(
            new ChunkQueue<>(Math.min(chunk, QUEUED_ROWS), QUEUED_CHARS),
            new CompletableFuture<>());
    threads.execute(
        () -> {
          try {
            Start from = start.join();
            if (from.pastEnd()) {
              reading.next().complete(Start.PAST_END);
              reading.rows().end(true);
              return;
            }
            reading.rows().end(readChunk(table, from, reading, decode));
          } catch (CompletionException e) {
            // the chunk before failed: its reading reports it, and this one goes no further
            reading.next().completeExceptionally(e.getCause());
            reading.rows().fail(asRuntime(e.getCause()));
          } catch (RuntimeException | Error e) {
            reading.next().completeExceptionally(e);
            reading.rows().fail(asRuntime(e));
          }
        });
    return reading;
  }

  private static RuntimeException asRuntime(Throwable e) {
    return e instanceof RuntimeException r ? r : new IllegalStateException(e);
  }

  /** Waits for the readings to end: they stop at their next row once closed. */
  private static void awaitEnd(ExecutorService threads) {
    try {
      if (!threads.awaitTermination(5, TimeUnit.MINUTES)) {
        threads.shutdownNow();
      }
    } catch (InterruptedException e) {
      threads.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** Reads one chunk into its queue; whether it was the table's last. */
  private <T> boolean readChunk(
      IndexedTable table, Start from, Reading<T> reading, Rows<T> decode) {
    // expired entities are absent to every read; a table without TTL gets no condition
    Condition alive = table.expiry().alive(store.dialect, store.versions.time());
    Condition after =
        from.partitionKey() == null
            ? DSL.trueCondition()
            : DSL.row(PARTITION_KEY, ROW_KEY).gt(from.partitionKey(), from.rowKey());
    // autocommit off, so that PostgreSQL streams the rows through a cursor of FETCH_SIZE; no
    // silence limit, since the planner may sort a chunk before its first row
    return store.unhurried(
        context ->
            store.inTransaction(
                context, sql -> rows(sql, table.id(), after, alive, reading, decode)));
  }

  /**
   * The chunk's rows, bounded above by the key {@code chunk} rows ahead (an index-only walk): with
   * a LIMIT alone, PostgreSQL may read and sort the whole rest of the table for each chunk. The
   * bound is the next chunk's start, told as soon as it is known.
   */
  private <T> boolean rows(
      DSLContext sql,
      long tableId,
      Condition after,
      Condition alive,
      Reading<T> reading,
      Rows<T> decode) {
    Dialect dialect = store.dialect;
    Record2<String, String> end =
        sql.select(PARTITION_KEY, ROW_KEY)
            .from(dialect.entitiesForReading("trestle_entity"))
            .where(ENTITY_TABLE.eq(tableId).and(after))
            .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY)
            .offset(DSL.inline(chunk - 1))
            .limit(DSL.inline(1))
            .fetchOne();
    // rows deleted meanwhile may end this chunk early: the next one starts after its bound
    reading
        .next()
        .complete(end == null ? Start.PAST_END : new Start(end.value1(), end.value2(), false));
    Condition within =
        end == null
            ? after
            : after.and(DSL.row(PARTITION_KEY, ROW_KEY).le(end.value1(), end.value2()));
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
      List<T> block = new ArrayList<>(BLOCK);
      long chars = 0;
      for (Record row : cursor) {
        String document = dialect.propertiesText(row.get(dialect.propertiesColumn()));
        block.add(decode.row(row.get(PARTITION_KEY), row.get(ROW_KEY), row.get(TICKS), document));
        chars += document.length();
        if (block.size() == BLOCK || chars >= BLOCK_CHARS) {
          if (!reading.rows().put(block, chars)) {
            return false; // the caller stopped
          }
          block = new ArrayList<>(BLOCK);
          chars = 0;
        }
      }
      if (!block.isEmpty()) {
        reading.rows().put(block, chars);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading table " + tableName, e);
    }
    return end == null;
  }
}
