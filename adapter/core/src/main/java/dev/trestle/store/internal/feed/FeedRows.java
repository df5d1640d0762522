package dev.trestle.store.internal.feed;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads trestle_feed rows, with the newest position (a change kept, or swept). */
final class FeedRows {
  private FeedRows() {}

  /** The table's feed, or null when it has none. */
  static FeedRow find(Connection connection, long tableId) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "select enabled, greatest(last_position, coalesce((select max(position) from"
                + " trestle_change c where c.table_id = f.table_id), 0)), with_entity, retention"
                + " from trestle_feed f where table_id = ?")) {
      select.setLong(1, tableId);
      try (ResultSet row = select.executeQuery()) {
        return row.next()
            ? new FeedRow(
                tableId, row.getLong(1), row.getLong(2), row.getBoolean(3), row.getLong(4))
            : null;
      }
    }
  }
}
