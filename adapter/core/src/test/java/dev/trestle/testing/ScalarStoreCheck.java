package dev.trestle.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The scalar store's invariant on PostgreSQL: every entity has exactly its scalar row, {@code
 * trestle_scalars(properties)} signed {@code trestle_string_signature(properties)}; a missing or
 * stale one would hide the entity from a filter. Usable after any test's writes; on H2, which keeps
 * no scalar store, it checks nothing.
 */
public final class ScalarStoreCheck {
  private ScalarStoreCheck() {}

  /**
   * Entities of the account's tables whose scalar row is missing or differs from their properties
   * (the account's: other tests write rows by hand without one).
   */
  public static long stale(TestDatabase database, String account) throws SQLException {
    try (Connection connection = database.dataSource().getConnection();
        PreparedStatement count =
            connection.prepareStatement(
                "select count(*) from trestle_entity e"
                    + " join trestle_table t on t.id = e.table_id"
                    + " left join trestle_entity_scalar s"
                    + " using (table_id, partition_key, row_key)"
                    + " where t.account = ?"
                    + " and (s.scalars is distinct from trestle_scalars(e.properties)"
                    + " or s.signature is distinct from trestle_string_signature(e.properties))")) {
      count.setString(1, account);
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /**
   * Scalar rows without an entity, in any table (also of dropped tables): harmless to reads, but no
   * Trestle write leaves one.
   */
  public static long orphans(TestDatabase database) throws SQLException {
    try (Connection connection = database.dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "select count(*) from trestle_entity_scalar s where not exists (select 1 from"
                    + " trestle_entity e where e.table_id = s.table_id"
                    + " and e.partition_key = s.partition_key and e.row_key = s.row_key)")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** Asserts the account's entities and their scalar rows agree, and no orphan is left. */
  public static void assertConsistent(TestDatabase database, String account) {
    if (database.kind() == TestDatabase.Kind.H2) {
      return;
    }
    try {
      assertThat(stale(database, account))
          .as("entities with a missing or stale scalar row")
          .isZero();
      assertThat(orphans(database)).as("scalar rows without an entity").isZero();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
