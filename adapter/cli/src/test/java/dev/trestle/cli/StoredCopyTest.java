package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.MultiShardWrites;
import dev.trestle.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A copy between databases of the same kind passes each stored row through: keys, version
 * (Timestamp and ETag) and properties document come out byte for byte, and verify says equal.
 */
@MultiShardWrites("a copy loads rows of several partitions per transaction")
class StoredCopyTest {

  @DatabaseTest
  void aSameKindCopyWritesEveryStoredRowByteForByte(TestDatabase db) throws Exception {
    String account = TestDatabase.newAccount();
    try (TableService source = db.newService(account);
        CliDatabases.Empty empty = CliDatabases.empty(db)) {
      TransferTest.fill(source, "Typed", 1_234);
      List<String> to = new ArrayList<>();
      List<String> target = empty.flags();
      for (int i = 0; i < target.size(); i += 2) {
        if (target.get(i).startsWith("--db") && !target.get(i).equals("--db-wait")) {
          to.add("--to" + target.get(i).substring(1));
          to.add(target.get(i + 1));
        }
      }
      List<String> copy = new ArrayList<>(List.of("copy"));
      copy.addAll(CliDatabases.flags(db));
      copy.addAll(to);
      copy.addAll(List.of("--account", account, "--quiet", "--verify"));
      CliRun run = CliRun.run(copy.toArray(String[]::new));

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.out()).contains("Typed: equal; source 1234 entities");
      List<String> copied = rows(db, empty.url(), account);
      assertThat(copied).hasSize(1_234);
      assertThat(copied)
          .containsExactlyElementsOf(rows(db, CliDatabases.flags(db).get(1), account));
    }
  }

  /** Every stored row of the account's table Typed, as text: keys, ticks and document. */
  private static List<String> rows(TestDatabase db, String url, String account)
      throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(url, db.username(), db.password());
        PreparedStatement select =
            connection.prepareStatement(
                "select e.partition_key, e.row_key, e.ticks, cast(e.properties as varchar)"
                    + " from trestle_entity e join trestle_table t on t.id = e.table_id"
                    + " where t.account = ? and t.name = 'Typed'"
                    + " order by e.partition_key, e.row_key")) {
      select.setString(1, account);
      try (ResultSet result = select.executeQuery()) {
        while (result.next()) {
          rows.add(
              result.getString(1)
                  + "|"
                  + result.getString(2)
                  + "|"
                  + result.getLong(3)
                  + "|"
                  + result.getString(4));
        }
      }
    }
    return rows;
  }
}
