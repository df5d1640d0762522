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
  /**
   * Whether the table has a feed, read without a lock: H2 parses a FOR UPDATE statement again on
   * every call (its query cache keeps none), which was a tenth of a durable H2 insert's CPU for
   * tables without a feed. A locking read sees no more feed rows than this one does: it locks the
   * committed rows it finds and waits for no row that is not there.
   */
  private static final String EXISTS = "select 1 from trestle_feed where table_id = ?";

  /** Locks the feed row to the commit: the writers of one feed take positions in commit order. */
  private static final String LOCK =
      "select last_position, with_entity from trestle_feed where table_id = ? for update";

  /** After the lock, so the changes of the writer before are seen. */
  private static final String NEXT =
      "select coalesce(max(position), 0) from trestle_change where table_id = ?";

  private static final String APPEND =
      "insert into trestle_change (table_id, position, kind, partition_key, row_key, ticks,"
          + " changed, properties) values (?, ?, ?, ?, ?, ?, ?, ?)";

  @Override
  public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
    Object[] row = newRow != null ? newRow : oldRow;
    long tableId = ((Number) row[0]).longValue();
    long position;
    boolean withEntity;
    try (PreparedStatement exists = connection.prepareStatement(EXISTS)) {
      exists.setLong(1, tableId);
      try (ResultSet feed = exists.executeQuery()) {
        if (!feed.next()) {
          return; // the table has no feed
        }
      }
    }
    try (PreparedStatement lock = connection.prepareStatement(LOCK)) {
      lock.setLong(1, tableId);
      try (ResultSet feed = lock.executeQuery()) {
        if (!feed.next()) {
          return; // the feed was disabled in between
        }
        position = feed.getLong(1);
        withEntity = feed.getBoolean(2);
      }
    }
    try (PreparedStatement next = connection.prepareStatement(NEXT)) {
      next.setLong(1, tableId);
      try (ResultSet newest = next.executeQuery()) {
        newest.next();
        position = Math.max(position, newest.getLong(1)) + 1;
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
