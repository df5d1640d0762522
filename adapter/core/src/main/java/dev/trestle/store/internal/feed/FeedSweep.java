package dev.trestle.store.internal.feed;

import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Store;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.jooq.DSLContext;

/**
 * Removes a feed's changes older than its retention, at most a given number per call: the oldest
 * kept position plus that many bounds the delete to one range of the change table's key. It takes
 * no lock the table's writers wait for (they lock the trestle_feed row, the sweep only old changes).
 */
final class FeedSweep {
  private FeedSweep() {}

  static long sweep(Store store, DSLContext sql, FeedRow feed, int max) {
    long cutoff = Ticks.now() - feed.retention();
    return store.withConnection(
        sql,
        connection -> {
          long oldest;
          try (PreparedStatement select =
              connection.prepareStatement(
                  "select min(position) from trestle_change where table_id = ?")) {
            select.setLong(1, feed.tableId());
            try (ResultSet row = select.executeQuery()) {
              row.next();
              oldest = row.getLong(1);
              if (row.wasNull()) {
                return 0L;
              }
            }
          }
          try (PreparedStatement delete =
              connection.prepareStatement(
                  "delete from trestle_change where table_id = ? and position < ?"
                      + " and changed < ?")) {
            delete.setLong(1, feed.tableId());
            delete.setLong(2, oldest + max);
            delete.setLong(3, cutoff);
            return (long) delete.executeUpdate();
          }
        });
  }
}
