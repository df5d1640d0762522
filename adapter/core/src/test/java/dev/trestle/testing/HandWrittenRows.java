package dev.trestle.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Rows written into {@code trestle_entity} by SQL, bypassing Trestle, as an operator might: for
 * tests of what reads make of rows Trestle did not write. Keys are plain ASCII (stored as they are
 * on both databases).
 */
public final class HandWrittenRows {
  /** Accounts holding such rows, which have no scalar row: {@link ScalarStoreCheck} skips them. */
  private static final java.util.Set<String> ACCOUNTS =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private HandWrittenRows() {}

  /** Whether rows were written by hand into the account's tables. */
  static boolean wroteTo(String account) {
    return ACCOUNTS.contains(account);
  }

  /** Inserts one row into an existing table of the account. */
  public static void insert(
      TestDatabase database,
      String account,
      String table,
      String partitionKey,
      String rowKey,
      long ticks,
      String properties)
      throws SQLException {
    ACCOUNTS.add(account);
    String cast = database.kind() == TestDatabase.Kind.H2 ? "?" : "CAST(? AS jsonb)";
    try (Connection connection = database.dataSource().getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO trestle_entity (table_id, partition_key, row_key, ticks, properties)"
                    + " SELECT id, ?, ?, ?, "
                    + cast
                    + " FROM trestle_table WHERE account = ? AND name_key = ?")) {
      insert.setString(1, partitionKey);
      insert.setString(2, rowKey);
      insert.setLong(3, ticks);
      insert.setString(4, properties);
      insert.setString(5, account);
      insert.setString(6, table.toLowerCase(java.util.Locale.ROOT));
      if (insert.executeUpdate() != 1) {
        throw new IllegalStateException("No table " + table + " in account " + account);
      }
    }
  }
}
