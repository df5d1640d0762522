package dev.trestle.store.internal.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableInfo;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.h2.engine.SessionLocal;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OneWriterAtATimeTest {
  @TempDir Path folder;

  @Test
  void tellsQueriesFromWrites() {
    assertThat(OneWriterAtATime.writes("select 1")).isFalse();
    assertThat(OneWriterAtATime.writes("  (SELECT a FROM t) union (select b from u)")).isFalse();
    assertThat(OneWriterAtATime.writes("with x as (select 1) select * from x")).isFalse();
    assertThat(OneWriterAtATime.writes("values (1)")).isFalse();
    assertThat(OneWriterAtATime.writes("select * from t where k = ? for update")).isTrue();
    assertThat(OneWriterAtATime.writes("SELECT * FROM t FOR\n UPDATE NOWAIT")).isTrue();
    assertThat(OneWriterAtATime.writes("select updated from t")).isFalse();
    assertThat(OneWriterAtATime.writes("select format, for_update from t")).isFalse();
    assertThat(OneWriterAtATime.writes("with x as (select 1 from t for update) select 1")).isTrue();
    assertThat(OneWriterAtATime.writes("with x as (select 1) insert into t select * from x"))
        .isTrue();
    assertThat(OneWriterAtATime.writes("insert into t values (1)")).isTrue();
    assertThat(OneWriterAtATime.writes("merge into t key (k) values (1)")).isTrue();
    assertThat(OneWriterAtATime.writes("update t set a = 1")).isTrue();
    assertThat(OneWriterAtATime.writes("delete from t")).isTrue();
    assertThat(OneWriterAtATime.writes("create index i on t(a)")).isTrue();
    assertThat(OneWriterAtATime.writes("call f()")).isTrue();
    assertThat(OneWriterAtATime.writes("set lock_timeout 10")).isTrue();
  }

  @Test
  void aSecondWriterWaitsForTheFirstTransactionToEndWhileReadersGoOn() throws Exception {
    DataSource database = withTable(file("writers"));
    try (Connection first = database.getConnection();
        Connection second = database.getConnection();
        Connection reader = database.getConnection()) {
      first.setAutoCommit(false);
      insert(first, 1);

      CompletableFuture<Void> secondInsert = CompletableFuture.runAsync(() -> insert(second, 2));
      assertWaits(secondInsert);
      try (Statement query = reader.createStatement()) {
        assertThat(query.executeQuery("select count(*) from t").next()).isTrue();
      }

      first.commit();
      secondInsert.get(10, TimeUnit.SECONDS);

      insert(first, 3);
      CompletableFuture<Void> afterRollback = CompletableFuture.runAsync(() -> insert(second, 4));
      assertWaits(afterRollback);
      first.rollback();
      afterRollback.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aTransactionLeftOpenEndsItsHoldWhenItsConnectionCloses() throws Exception {
    DataSource database = withTable(file("closing"));
    Connection first = database.getConnection();
    first.setAutoCommit(false);
    insert(first, 1);
    try (Connection second = database.getConnection()) {
      CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> insert(second, 2));
      assertWaits(waiting);
      first.close();
      waiting.get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * H2 saves its whole file whenever a transaction rolls back, even one that only read; a save
   * while another transaction writes can catch that transaction halfway (h2database#2080). A
   * transaction that never wrote ends without a save, by rollback or by closing its connection.
   */
  @Test
  void aTransactionThatOnlyReadEndsWithoutSavingTheFileWhileAnotherWrites() throws Exception {
    DataSource database = withTable(file("readers"));
    try (Connection writer = database.getConnection()) {
      writer.setAutoCommit(false);
      insert(writer, 1);
      Connection reader = database.getConnection();
      MVStore file = fileOf(reader);
      long version = file.getCurrentVersion();
      reader.setAutoCommit(false);
      assertThat(count(reader)).isZero();
      reader.rollback();
      assertThat(count(reader)).isZero();
      reader.close();
      assertThat(file.getCurrentVersion())
          .as("saves of the file while the writer's transaction was open")
          .isEqualTo(version);
      writer.commit();
      try (Connection after = database.getConnection()) {
        assertThat(count(after)).isOne();
      }
    }
  }

  /** A statement the gate does not know to write still has its write rolled back. */
  @Test
  void aWriteTheGateDidNotSeeIsRolledBackAsAsked() throws Exception {
    DataSource database = withTable(file("unseen"));
    try (Connection connection = database.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement();
          ResultSet inserted =
              statement.executeQuery("select k from final table (insert into t values (7))")) {
        assertThat(inserted.next()).isTrue();
      }
      connection.rollback();
      assertThat(count(connection)).isZero();
    }
  }

  @Test
  void oneThreadMayWriteOnTwoConnectionsAtOnce() throws Exception {
    DataSource database = withTable(file("one-thread"));
    try (Connection locking = database.getConnection();
        Connection writing = database.getConnection();
        Connection other = database.getConnection()) {
      locking.setAutoCommit(false);
      try (Statement lock = locking.createStatement()) {
        lock.executeQuery("select * from t for update");
      }
      insert(writing, 1);
      CompletableFuture<Void> otherThread = CompletableFuture.runAsync(() -> insert(other, 2));
      assertWaits(otherThread);
      locking.commit();
      otherThread.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anAbortedConnectionLeavesItsPoolAndTheGate() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:" + folder.resolve("pool"));
    config.setMaximumPoolSize(2);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      DataSource database = withTable(pool);
      Connection aborted = database.getConnection();
      Connection physical = aborted.unwrap(Connection.class);
      aborted.setAutoCommit(false);
      insert(aborted, 1);
      aborted.abort(Runnable::run);
      try (Connection first = database.getConnection();
          Connection second = database.getConnection()) {
        assertThat(first.unwrap(Connection.class)).isNotSameAs(physical);
        assertThat(second.unwrap(Connection.class)).isNotSameAs(physical);
        insert(first, 2);
      }
    }
  }

  @Test
  void aWriterGivesUpAtTheLockTimeoutBeforeItsStatementRuns() throws Exception {
    JdbcDataSource source = new JdbcDataSource();
    source.setURL("jdbc:h2:" + folder.resolve("timeout") + ";LOCK_TIMEOUT=200");
    DataSource database = withTable(source);
    try (Connection first = database.getConnection();
        Connection second = database.getConnection()) {
      first.setAutoCommit(false);
      insert(first, 1);
      long start = System.nanoTime();
      // another thread: the gate lets one thread in on several connections
      CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> insert(second, 2));
      assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
          .rootCause()
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("HYT00"));
      assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(200_000_000L);

      first.commit();
      insert(second, 3);
      try (Statement query = second.createStatement();
          ResultSet keys = query.executeQuery("select k from t order by k")) {
        assertThat(keys.next() && keys.getInt(1) == 1 && keys.next() && keys.getInt(1) == 3)
            .isTrue();
        assertThat(keys.next()).isFalse();
      }
    }
  }

  @Test
  void writesThatCannotGetInAreServerBusyAndChangeNothing() throws Exception {
    try (HikariDataSource pool = impatientPool("busy");
        TableService service = TableService.builder().dataSource(pool).account("busy").build()) {
      service.createTable("kept");
      TableClient table = service.tableClient("kept");
      TableEntity entity = TableEntity.builder("p", "r").put("n", 1).build();
      try (Connection holder = holdingTheGate(pool)) {
        assertServerBusy(() -> table.insert(entity));
        assertServerBusy(() -> table.submitTransaction(List.of(TableOperation.insert(entity))));
        assertServerBusy(() -> service.createTable("other"));
        assertServerBusy(() -> service.deleteTable("kept"));
        holder.rollback();
      }
      assertThat(table.query(EntityQuery.all()).entities()).isEmpty();
      assertThat(service.listTables().stream().map(TableInfo::name)).containsExactly("kept");
      table.insert(entity);
    }
  }

  @Test
  void aSingleWriteThatTimedOutAtTheGateRunsAgainAndLandsOnceItOpens() throws Exception {
    try (HikariDataSource pool = impatientPool("again");
        TableService service = TableService.builder().dataSource(pool).account("again").build()) {
      service.createTable("kept");
      TableClient table = service.tableClient("kept");
      TableEntity entity = TableEntity.builder("p", "r").put("n", 1).build();
      CompletableFuture<TableEntity> insert;
      try (Connection holder = holdingTheGate(pool)) {
        insert = CompletableFuture.supplyAsync(() -> table.insert(entity));
        // several lock timeouts pass while the gate is held; each is run again, not answered
        Thread.sleep(300);
        assertThat(insert).isNotDone();
        holder.rollback();
      }
      insert.get(30, TimeUnit.SECONDS);
      assertThat(table.get("p", "r").property("n").orElseThrow().value()).isEqualTo(1);
    }
  }

  /** A pool on a new file whose writers give up at the gate after 50 ms (H2's lock timeout). */
  private HikariDataSource impatientPool(String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:" + folder.resolve(name) + ";LOCK_TIMEOUT=50");
    return new HikariDataSource(config);
  }

  /** A connection in a transaction that has written (locked the catalogue): the gate is its own. */
  private static Connection holdingTheGate(DataSource pool) throws java.sql.SQLException {
    Connection holder = OneWriterAtATime.around(pool).getConnection();
    holder.setAutoCommit(false);
    try (Statement lock = holder.createStatement()) {
      lock.executeQuery("select * from trestle_table for update");
    }
    return holder;
  }

  /** Runs the write on another thread (the gate lets one thread in on several connections). */
  private static void assertServerBusy(Runnable write) {
    assertThatThrownBy(() -> CompletableFuture.runAsync(write).get(60, TimeUnit.SECONDS))
        .cause()
        .isInstanceOfSatisfying(
            TableException.class,
            e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.SERVER_BUSY));
  }

  /** The source, its writers let in one at a time, over a database with a table t. */
  private static DataSource withTable(DataSource source) throws java.sql.SQLException {
    DataSource database = OneWriterAtATime.around(source);
    try (Connection setup = database.getConnection();
        Statement statement = setup.createStatement()) {
      statement.execute("create table t (k int primary key)");
    }
    return database;
  }

  /** An H2 file opened as Trestle opens one: each commit saved before it returns. */
  private DataSource file(String name) {
    JdbcDataSource source = new JdbcDataSource();
    source.setURL(
        dev.trestle.store.JdbcUrls.durable(
            "jdbc:h2:" + folder.resolve(name) + ";LOCK_TIMEOUT=20000"));
    return source;
  }

  private static void assertWaits(CompletableFuture<Void> writer) throws Exception {
    try {
      writer.get(300, TimeUnit.MILLISECONDS);
      throw new AssertionError("the second writer did not wait");
    } catch (TimeoutException expected) {
      // still waiting for the first writer's transaction to end
    }
  }

  private static long count(Connection connection) throws java.sql.SQLException {
    try (Statement query = connection.createStatement();
        ResultSet rows = query.executeQuery("select count(*) from t")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /** The store of the H2 file behind the connection: its version counts the file's saves. */
  private static MVStore fileOf(Connection connection) throws java.sql.SQLException {
    SessionLocal session =
        (SessionLocal) connection.unwrap(org.h2.jdbc.JdbcConnection.class).getSession();
    return session.getDatabase().getStore().getMvStore();
  }

  private static void insert(Connection connection, int key) {
    try (PreparedStatement insert = connection.prepareStatement("insert into t values (?)")) {
      insert.setInt(1, key);
      insert.executeUpdate();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
