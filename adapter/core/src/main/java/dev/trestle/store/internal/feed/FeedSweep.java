package dev.trestle.store.internal.feed;

import dev.trestle.store.internal.database.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Removes a feed's changes older than its retention, at most a given number per call: the oldest
 * kept position plus that many bounds the delete to one range of the change table's key. In one
 * short transaction it locks the feed row (the table's writers wait that long) and records the
 * newest position swept, after which positions continue even when no change is left.
 */
final class FeedSweep {
  private FeedSweep() {}

  static long sweep(Store store, FeedRow feed, int max) {
    // the service's clock, as time to live reads it (a test's fake clock moves both)
    long cutoff = store.versions.time() - feed.retention();
    return store.inTransaction(
        sql ->
            store.withConnection(
                sql,
                connection -> {
                  try (PreparedStatement lock =
                      connection.prepareStatement(
                          "select last_position from trestle_feed where table_id = ? for update")) {
                    lock.setLong(1, feed.tableId());
                    try (ResultSet row = lock.executeQuery()) {
                      if (!row.next()) {
                        return 0L;
                      }
                    }
                  }
                  long oldest =
                      value(connection, "min(position)", feed.tableId(), Long.MAX_VALUE, 0);
                  if (oldest == 0) {
                    return 0L;
                  }
                  long below = oldest + max;
                  long newest = value(connection, "max(position)", feed.tableId(), below, cutoff);
                  if (newest == 0) {
                    return 0L;
                  }
                  long swept;
                  try (PreparedStatement delete =
                      connection.prepareStatement(
                          "delete from trestle_change where table_id = ? and position <= ?")) {
                    delete.setLong(1, feed.tableId());
                    delete.setLong(2, newest);
                    swept = delete.executeUpdate();
                  }
                  try (PreparedStatement floor =
                      connection.prepareStatement(
                          "update trestle_feed set last_position = greatest(last_position, ?)"
                              + " where table_id = ?")) {
                    floor.setLong(1, newest);
                    floor.setLong(2, feed.tableId());
                    floor.executeUpdate();
                  }
                  return swept;
                }));
  }

  /**
   * An aggregate of the feed's positions below {@code below} written before {@code before} (0: any
   * time), 0 when there is none.
   */
  private static long value(
      Connection connection, String aggregate, long tableId, long below, long before)
      throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "select coalesce("
                + aggregate
                + ", 0) from trestle_change where table_id = ? and position < ?"
                + (before == 0 ? "" : " and changed < ?"))) {
      select.setLong(1, tableId);
      select.setLong(2, below);
      if (before != 0) {
        select.setLong(3, before);
      }
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }
}
