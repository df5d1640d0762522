package dev.trestle.store.internal.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.store.JdbcUrls;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.db.MVIndex;
import org.h2.mvstore.db.MVTable;
import org.h2.value.VersionedValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrphanedVersionsTest {
  @TempDir Path folder;

  /**
   * An update and an insert of a transaction left in the table's maps after the transaction ended,
   * as a save taken halfway through it leaves them in the file: the inserted key is blocked until
   * they are reverted, and then every reader sees the committed rows only.
   */
  @Test
  void versionsOfATransactionThatIsGoneAreRevertedAndTheirKeysFreed() throws Exception {
    String url = JdbcUrls.durable("jdbc:h2:" + folder.resolve("orphans") + ";LOCK_TIMEOUT=300");
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(
          "create table t (id bigint generated always as identity primary key, k int not null,"
              + " v int not null)");
      statement.execute("create unique index t_k on t (k)");
      statement.execute("insert into t (k, v) values (1, 10)");
      Map<MVMap<Object, VersionedValue<Object>>, Map<Object, VersionedValue<Object>>> left;
      try (Connection writer = DriverManager.getConnection(url);
          Statement writes = writer.createStatement()) {
        writer.setAutoCommit(false);
        writes.execute("update t set v = 11 where k = 1");
        writes.execute("insert into t (k, v) values (2, 20)");
        left = uncommitted(connection);
        writer.rollback();
      }
      left.forEach((map, versions) -> map.putAll(versions));
      assertThatThrownBy(() -> statement.execute("insert into t (k, v) values (2, 21)"))
          .as("an insert of a key an orphaned version holds")
          .isInstanceOf(SQLException.class);

      int versions = left.values().stream().mapToInt(Map::size).sum();
      assertThat(versions).isPositive();
      assertThat(OrphanedVersions.revert(connection)).isEqualTo(versions);

      assertThat(uncommitted(connection)).isEmpty();
      assertThat(rows(statement)).containsExactly("1=10");
      statement.execute("insert into t (k, v) values (2, 21)");
      assertThat(rows(statement)).containsExactly("1=10", "2=21");
      assertThat(OrphanedVersions.revert(connection)).isZero();
    }
  }

  /**
   * The file a killed copy left in CI (H2IndexRepairTest's fixture, see bench/RESULTS.md): the
   * version that blocked its key belongs to no transaction, and reverting it frees the key with no
   * index rebuilt.
   */
  @Test
  void theVersionAKilledCopyLeftIsRevertedAndItsKeyFreed() throws Exception {
    Path file = folder.resolve("captured.mv.db");
    try (var in =
        new java.util.zip.GZIPInputStream(
            getClass().getResourceAsStream("/dev/trestle/store/blocked-key.mv.db.gz"))) {
      java.nio.file.Files.copy(in, file);
    }
    String insert =
        "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties)"
            + " select id, 'p000042', 'r087', 0, '{}' from trestle_table";
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:h2:file:" + folder.resolve("captured") + ";LOCK_TIMEOUT=100");
        Statement statement = connection.createStatement()) {
      assertThat(OrphanedVersions.revert(connection)).isPositive();
      assertThat(statement.executeUpdate(insert)).isOne();
    }
  }

  /** Every version of table T that carries an operation id, by map. */
  @SuppressWarnings("unchecked")
  private static Map<MVMap<Object, VersionedValue<Object>>, Map<Object, VersionedValue<Object>>>
      uncommitted(Connection connection) throws SQLException {
    SessionLocal session = (SessionLocal) connection.unwrap(JdbcConnection.class).getSession();
    MVTable table =
        (MVTable) session.getDatabase().getSchema("PUBLIC").getTableOrView(session, "T");
    // by identity: a map's own hash reads its rows, and H2's rows have none
    Map<MVMap<Object, VersionedValue<Object>>, Map<Object, VersionedValue<Object>>> found =
        new java.util.IdentityHashMap<>();
    for (var index : table.getIndexes()) {
      if (index instanceof MVIndex<?, ?> mvIndex && mvIndex.getMVMap() != null) {
        var map = (MVMap<Object, VersionedValue<Object>>) (MVMap<?, ?>) mvIndex.getMVMap();
        var cursor = map.cursor(null);
        while (cursor.hasNext()) {
          Object key = cursor.next();
          if (cursor.getValue().getOperationId() != 0) {
            found
                .computeIfAbsent(map, any -> new java.util.TreeMap<>(map.getKeyType()))
                .put(key, cursor.getValue());
          }
        }
      }
    }
    return found;
  }

  private static List<String> rows(Statement statement) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet row = statement.executeQuery("select k, v from t order by k")) {
      while (row.next()) {
        rows.add(row.getInt(1) + "=" + row.getInt(2));
      }
    }
    return rows;
  }
}
