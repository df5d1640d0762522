package dev.trestle.store.internal.h2;

import dev.trestle.store.internal.codec.Ticks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.h2.api.Trigger;

/**
 * Appends a change of trestle_entity to its table's change feed, in the writing transaction
 * (registered by the H2 migration V5; PostgreSQL does the same with statement triggers). A table
 * without a feed row costs one key lookup. Its name is part of the H2 schema: rename it only with a
 * new migration.
 */
public final class H2FeedTrigger implements Trigger {
  private static final String BUMP =
      "select last_position, with_entity from final table (update trestle_feed"
          + " set last_position = last_position + 1 where table_id = ?)";
  private static final String APPEND =
      "insert into trestle_change (table_id, position, kind, partition_key, row_key, ticks,"
          + " changed, properties) values (?, ?, ?, ?, ?, ?, ?, ?)";

  @Override
  public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
    Object[] row = newRow != null ? newRow : oldRow;
    long tableId = ((Number) row[0]).longValue();
    long position;
    boolean withEntity;
    try (PreparedStatement bump = connection.prepareStatement(BUMP)) {
      bump.setLong(1, tableId);
      try (ResultSet feed = bump.executeQuery()) {
        if (!feed.next()) {
          return; // the table has no feed
        }
        position = feed.getLong(1);
        withEntity = feed.getBoolean(2);
      }
    }
    try (PreparedStatement append = connection.prepareStatement(APPEND)) {
      append.setLong(1, tableId);
      append.setLong(2, position);
      append.setString(3, oldRow == null ? "I" : newRow == null ? "D" : "U");
      append.setString(4, (String) row[1]);
      append.setString(5, (String) row[2]);
      append.setObject(6, newRow == null ? null : newRow[3]);
      append.setLong(7, Ticks.now());
      append.setObject(8, newRow != null && withEntity ? newRow[4] : null);
      append.executeUpdate();
    }
  }
}
