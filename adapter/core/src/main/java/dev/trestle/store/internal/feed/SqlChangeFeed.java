package dev.trestle.store.internal.feed;

import dev.trestle.ChangeFeed;
import dev.trestle.ChangePage;
import dev.trestle.PropertyValue;
import dev.trestle.TableChange;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.store.internal.codec.StoredRow;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.TableLookup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A table's change feed over trestle_feed and trestle_change, which the database's triggers fill in
 * each writing transaction (migration V5). Positions are gapless and commit-ordered per table, so a
 * reader resumes after a position and notices when changes it has not read were swept.
 */
public final class SqlChangeFeed implements ChangeFeed {
  /** Reads of a missing position before it counts as swept, and the first pause between them. */
  private static final int GAP_ATTEMPTS = 6;

  private static final long GAP_PAUSE_NANOS = 10_000_000;

  private static final long FIRST_POLL_NANOS = 50_000_000L;
  private static final long LONGEST_POLL_NANOS = 500_000_000L;

  private final Store store;
  private final String account;
  private final String tableName;

  public SqlChangeFeed(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  @Override
  public String enable(boolean withEntities, Duration retention) {
    Objects.requireNonNull(retention, "retention");
    if (retention.isNegative() || retention.isZero()) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT, "A change feed's retention must be positive.");
    }
    long retentionTicks = retention.toNanos() / 100;
    return store.inTransaction(
        sql -> {
          long tableId = TableLookup.id(sql, account, tableName);
          return store.withConnection(
              sql,
              connection -> {
                if (update(connection, tableId, withEntities, retentionTicks) == 0) {
                  try (PreparedStatement insert =
                      connection.prepareStatement(
                          "insert into trestle_feed (table_id, last_position, with_entity,"
                              + " retention, enabled) values (?, 0, ?, ?, ?)")) {
                    insert.setLong(1, tableId);
                    insert.setBoolean(2, withEntities);
                    insert.setLong(3, retentionTicks);
                    insert.setLong(4, Ticks.now());
                    insert.executeUpdate();
                  }
                }
                store.dialect.refreshFeedTriggers(connection);
                FeedRow feed = FeedRows.find(connection, tableId);
                return new FeedToken(feed.epoch(), feed.lastPosition()).text();
              });
        });
  }

  private static int update(
      Connection connection, long tableId, boolean withEntities, long retentionTicks)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "update trestle_feed set with_entity = ?, retention = ? where table_id = ?")) {
      update.setBoolean(1, withEntities);
      update.setLong(2, retentionTicks);
      update.setLong(3, tableId);
      return update.executeUpdate();
    }
  }

  @Override
  public void disable() {
    store.unhurried(
        sql -> {
          long tableId = TableLookup.id(sql, account, tableName);
          return store.inTransaction(
              sql,
              tx ->
                  store.withConnection(
                      tx,
                      connection -> {
                        try (PreparedStatement delete =
                            connection.prepareStatement(
                                "delete from trestle_feed where table_id = ?")) {
                          delete.setLong(1, tableId);
                          delete.executeUpdate();
                        }
                        store.dialect.refreshFeedTriggers(connection);
                        return null;
                      }));
        });
  }

  @Override
  public boolean enabled() {
    return store.onOneConnection(sql -> feed(sql) != null);
  }

  @Override
  public String latest() {
    FeedRow feed = store.onOneConnection(this::requireFeed);
    return new FeedToken(feed.epoch(), feed.lastPosition()).text();
  }

  @Override
  public ChangePage read(String from, int max, Duration wait) {
    if (max < 1 || max > MAX_PAGE) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          "A change feed read returns 1 to " + MAX_PAGE + " changes, not " + max + ".");
    }
    Objects.requireNonNull(wait, "wait");
    if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT,
          "A change feed read waits 0 to " + MAX_WAIT.toSeconds() + " seconds.");
    }
    FeedToken after = from == null ? null : FeedToken.parse(from);
    long deadline = System.nanoTime() + wait.toNanos();
    long pause = FIRST_POLL_NANOS;
    while (true) {
      ChangePage page = readOnce(after, max);
      long left = deadline - System.nanoTime();
      if (!page.changes().isEmpty() || left <= 0) {
        return page;
      }
      // A long poll: each round is one index probe of the table's newest changes.
      LockSupport.parkNanos(Math.min(pause, left));
      pause = Math.min(pause * 2, LONGEST_POLL_NANOS);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return page;
      }
    }
  }

  /**
   * One read of the changes after a token. Only the changes in an unbroken run of positions are
   * returned: a position missing between them (or right after the token) belongs to a writer whose
   * commit is not visible yet (H2 may release the feed row's lock a moment before its rows show),
   * so the reader waits for it; a gap right after the token that stays is a sweep's.
   */
  private ChangePage readOnce(FeedToken after, int max) {
    for (int attempt = 1; ; attempt++) {
      ChangePage page = readRun(after, max);
      if (page != null) {
        return page;
      }
      if (attempt == GAP_ATTEMPTS) {
        throw expired("is older than the oldest change kept (the feed's retention)");
      }
      LockSupport.parkNanos(GAP_PAUSE_NANOS * attempt);
    }
  }

  /** The unbroken run of changes after the token, or null when the first one is missing. */
  private ChangePage readRun(FeedToken after, int max) {
    return store.onOneConnection(
        sql -> {
          FeedRow feed = requireFeed(sql);
          long start = after == null ? 0 : after.position();
          if (after != null
              && (after.epoch() != feed.epoch() || after.position() > feed.lastPosition())) {
            throw expired("belongs to an earlier change feed of the table");
          }
          List<TableChange> changes =
              store.groups.read(feed.tableId(), () -> changes(sql, feed, start, max));
          if (changes.isEmpty()) {
            return after != null && start < feed.lastPosition()
                ? null
                : new ChangePage(changes, new FeedToken(feed.epoch(), start).text());
          }
          long expected =
              after == null ? FeedToken.parse(changes.get(0).position()).position() : start + 1;
          int run = 0;
          while (run < changes.size()
              && FeedToken.parse(changes.get(run).position()).position() == expected + run) {
            run++;
          }
          if (run == 0) {
            return null;
          }
          List<TableChange> unbroken = changes.subList(0, run);
          return new ChangePage(List.copyOf(unbroken), unbroken.get(run - 1).position());
        });
  }

  private List<TableChange> changes(org.jooq.DSLContext sql, FeedRow feed, long after, int max) {
    return store.withConnection(
        sql,
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "select position, kind, partition_key, row_key, ticks, changed, properties"
                      + " from trestle_change where table_id = ? and position > ?"
                      + " order by position limit "
                      + max)) {
            select.setLong(1, feed.tableId());
            select.setLong(2, after);
            List<TableChange> changes = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
              while (row.next()) {
                changes.add(change(feed, row));
              }
            }
            return changes;
          }
        });
  }

  private TableChange change(FeedRow feed, ResultSet row) throws SQLException {
    String position = new FeedToken(feed.epoch(), row.getLong(1)).text();
    TableChange.Kind kind =
        switch (row.getString(2).charAt(0)) {
          case 'I' -> TableChange.Kind.INSERT;
          case 'U' -> TableChange.Kind.UPDATE;
          default -> TableChange.Kind.DELETE;
        };
    String partitionKey = store.dialect.decodeText(row.getString(3));
    String rowKey = store.dialect.decodeText(row.getString(4));
    long ticks = row.getLong(5);
    boolean deleted = row.wasNull();
    java.time.Instant changed = Ticks.toInstant(row.getLong(6));
    String document = row.getString(7);
    if (deleted) {
      return new TableChange(position, kind, partitionKey, rowKey, null, null, changed, null);
    }
    Map<String, PropertyValue> properties =
        document == null ? Map.of() : store.properties.decode(document);
    TableEntity version = new StoredRow(partitionKey, rowKey, ticks, properties).toEntity();
    return new TableChange(
        position,
        kind,
        partitionKey,
        rowKey,
        version.etag(),
        version.timestamp(),
        changed,
        document == null ? null : version);
  }

  @Override
  public long sweep(int max) {
    if (max < 1) {
      throw new TableException(
          TableErrorCode.OUT_OF_RANGE_INPUT, "A sweep removes at least one change.");
    }
    return FeedSweep.sweep(store, store.onOneConnection(this::requireFeed), max);
  }

  private FeedRow feed(org.jooq.DSLContext sql) {
    long tableId = TableLookup.id(sql, account, tableName);
    return store.withConnection(sql, connection -> FeedRows.find(connection, tableId));
  }

  private FeedRow requireFeed(org.jooq.DSLContext sql) {
    FeedRow feed = feed(sql);
    if (feed == null) {
      throw new TableException(
          TableErrorCode.RESOURCE_NOT_FOUND,
          "The table "
              + tableName
              + " has no change feed: enable it first (trestle feed --enable, or"
              + " table.extensions().changeFeed().enable).");
    }
    return feed;
  }

  private static TableException expired(String why) {
    return new TableException(
        TableErrorCode.OUT_OF_RANGE_INPUT,
        "The change feed position token " + why + "; read from the start (no token) or latest().");
  }
}
