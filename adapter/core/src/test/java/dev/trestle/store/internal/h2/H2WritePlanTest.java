package dev.trestle.store.internal.h2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.store.SchemaMigrator;
import dev.trestle.store.internal.SqlTableService;
import dev.trestle.store.internal.database.EntityStatements;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoreSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * H2 only: in a new database, whose entity table has not been analyzed yet, every statement that
 * writes one entity finds it through the entity key index, not through the foreign key's index on
 * table_id, which would read every entity of the table for each write (H2 2.3 picks a write's index
 * from column statistics alone; see migrations/h2/R__planner_statistics.sql).
 */
class H2WritePlanTest {
  private static final String ACCOUNT = "planner";

  @Test
  void everySingleEntityWriteSeeksTheEntityKeyIndexInAFreshH2Database() throws SQLException {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL(
        "jdbc:h2:mem:plan-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong())
            + ";DB_CLOSE_DELAY=-1");
    SchemaMigrator.migrate(dataSource);
    StoreSettings settings = StoreSettings.onDataSource(dataSource, ACCOUNT);
    try (TableService service = SqlTableService.open(settings);
        Store store = Store.open(settings, QueryLimits.SERVICE);
        Connection connection = dataSource.getConnection()) {
      service.createTable("planned");
      TableClient table = service.tableClient("planned");
      for (int i = 0; i < 20; i++) {
        table.insert(TableEntity.builder("p", "r" + i).put("n", i).build());
      }
      long tableId = tableId(connection);
      EntityStatements statements = store.statements;
      // each statement's binds, as its comment in EntityStatements lists them
      Map<String, Object[]> writes =
          Map.of(
              "upsertReplace",
              new Object[] {"p", "r1", 1L, "{}", ACCOUNT, "planned"},
              "replaceAny",
              new Object[] {1L, "{}", ACCOUNT, "planned", "p", "r1"},
              "replaceIfVersion",
              new Object[] {1L, "{}", ACCOUNT, "planned", "p", "r1", 1L},
              "replaceDecided",
              new Object[] {1L, "{}", ACCOUNT, "planned", "p", "r1", 1L},
              "deleteAny",
              new Object[] {ACCOUNT, "planned", "p", "r1"},
              "deleteIfVersion",
              new Object[] {ACCOUNT, "planned", "p", "r1", 1L},
              "deleteDecided",
              new Object[] {ACCOUNT, "planned", "p", "r1", 1L},
              "groupUpdate",
              new Object[] {1L, "{}", tableId, "p", "r1", 1L},
              "groupDelete",
              new Object[] {tableId, "p", "r1", 1L});
      Map<String, String> texts =
          Map.of(
              "upsertReplace", statements.upsertReplace,
              "replaceAny", statements.replaceAny,
              "replaceIfVersion", statements.replaceIfVersion,
              "replaceDecided", statements.replaceDecided,
              "deleteAny", statements.deleteAny,
              "deleteIfVersion", statements.deleteIfVersion,
              "deleteDecided", statements.deleteDecided,
              "groupUpdate", statements.groupUpdate,
              "groupDelete", statements.groupDelete);
      for (Map.Entry<String, String> write : texts.entrySet()) {
        assertThat(plan(connection, write.getValue(), writes.get(write.getKey())))
            .as(write.getKey())
            .contains("/* PUBLIC.TRESTLE_ENTITY_KEY: ")
            .doesNotContain("FK_INDEX");
      }
    }
  }

  private static long tableId(Connection connection) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("select id from trestle_table where account = ?")) {
      select.setString(1, ACCOUNT);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /** The statement's plan, with its entity write's index in a comment. */
  private static String plan(Connection connection, String sql, Object[] binds)
      throws SQLException {
    String dml = sql.startsWith("select ticks from final table (") ? sql.substring(31) : sql;
    if (dml != sql) {
      dml = dml.substring(0, dml.length() - 1);
    }
    try (PreparedStatement explain = connection.prepareStatement("explain " + dml)) {
      for (int i = 0; i < binds.length; i++) {
        explain.setObject(i + 1, binds[i]);
      }
      try (ResultSet plan = explain.executeQuery()) {
        plan.next();
        return plan.getString(1);
      }
    }
  }
}
