package dev.trestle.store.internal.feed;

import dev.trestle.ChangeFeedSweep;
import dev.trestle.store.internal.database.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Sweeps the database's change feeds in turn, one table per run ({@link FeedSweep} bounds each): a
 * table stays next while its run removed the most it may, so a busy feed is caught up before the
 * others' turns.
 */
public final class FeedSweeper implements ChangeFeedSweep {
  private final Store store;

  /** The table swept last (0: none yet), and whether it had more to remove. */
  private long lastTable;

  private boolean more;

  public FeedSweeper(Store store) {
    this.store = store;
  }

  @Override
  public synchronized long runOnce(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be positive: " + max);
    }
    FeedRow feed =
        store.onOneConnection(
            sql ->
                store.withConnection(
                    sql,
                    connection -> {
                      long table = more ? lastTable : next(connection, lastTable);
                      return table == 0 ? null : FeedRows.find(connection, table);
                    }));
    if (feed == null) {
      lastTable = 0;
      more = false;
      return 0;
    }
    long swept = FeedSweep.sweep(store, feed, max);
    lastTable = feed.tableId();
    more = swept >= max;
    return swept;
  }

  /** The feed's table after {@code tableId} by id, wrapping around; 0 when there is none. */
  private static long next(Connection connection, long tableId) throws SQLException {
    long after = first(connection, tableId);
    return after != 0 || tableId == 0 ? after : first(connection, 0);
  }

  private static long first(Connection connection, long after) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("select min(table_id) from trestle_feed where table_id > ?")) {
      select.setLong(1, after);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }
}
