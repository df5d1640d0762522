package dev.trestle.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.PartitionConfinement.Kind;
import dev.trestle.testing.RecordingDataSource.Execution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The statement check that stands in for a Citus cluster: the store's statement shapes classified
 * (no database), and the recorder seeing real transactions.
 */
class PartitionConfinementTest {
  private static final String LOCK =
      "select table_id, row_key, ticks, properties from trestle_entity as trestle_entity where"
          + " (table_id = (select id from trestle_table where (account = ? and name_key = ?)) and"
          + " partition_key = ? and row_key in (?, ?)) order by table_id, partition_key, row_key"
          + " for update";
  private static final String INSERT =
      "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties) values (?,"
          + " ?, ?, ?, cast(? as jsonb))";
  private static final String UPDATE =
      "update trestle_entity set ticks = ?, properties = cast(? as jsonb) where (table_id = ? and"
          + " partition_key = ? and row_key = ? and ticks = ?)";

  @Test
  void theStoresWriteShapesNameOnePartition() {
    assertThat(PartitionConfinement.classify(LOCK, Map.of(3, "p", 4, "a", 5, "b")))
        .isEqualTo(new PartitionConfinement.Statement(Kind.WRITE_ONE_PARTITION, "p"));
    assertThat(PartitionConfinement.classify(INSERT, Map.of(1, 7L, 2, "p", 3, "r")))
        .isEqualTo(new PartitionConfinement.Statement(Kind.WRITE_ONE_PARTITION, "p"));
    assertThat(
            PartitionConfinement.classify(
                "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties)"
                    + " select id, ?, ?, ?, cast(? as jsonb) from trestle_table where (account = ?"
                    + " and name_key = ?)",
                Map.of(1, "q", 2, "r")))
        .isEqualTo(new PartitionConfinement.Statement(Kind.WRITE_ONE_PARTITION, "q"));
    assertThat(PartitionConfinement.classify(UPDATE, Map.of(3, 7L, 4, "p")).kind())
        .isEqualTo(Kind.WRITE_ONE_PARTITION);
    assertThat(
            PartitionConfinement.classify(
                "insert into trestle_entity as e (table_id, partition_key, row_key, ticks,"
                    + " properties) select id, cast(? as varchar), cast(? as varchar), cast(? as"
                    + " bigint), cast(? as jsonb) from trestle_table where account = ? and name_key"
                    + " = ? on conflict (table_id, partition_key, row_key) do update set ticks ="
                    + " excluded.ticks",
                Map.of(1, "s", 2, "r")))
        .isEqualTo(new PartitionConfinement.Statement(Kind.WRITE_ONE_PARTITION, "s"));
  }

  @Test
  void writesAndScansWithoutOnePartitionAreToldApart() {
    assertThat(
            PartitionConfinement.classify(
                    "delete from trestle_entity where table_id = ?", Map.of(1, 7L))
                .kind())
        .isEqualTo(Kind.WRITE_ACROSS_PARTITIONS);
    assertThat(
            PartitionConfinement.classify(
                    "insert into trestle_entity (table_id, partition_key, row_key) values (?, ?, ?),"
                        + " (?, ?, ?)",
                    Map.of(2, "a", 5, "b"))
                .kind())
        .isEqualTo(Kind.WRITE_ACROSS_PARTITIONS);
    assertThat(
            PartitionConfinement.classify(
                    "select partition_key, row_key from trestle_entity where (table_id = ? and"
                        + " partition_key >= ?)",
                    Map.of(1, 7L, 2, "a"))
                .kind())
        .isEqualTo(Kind.READ_ACROSS_PARTITIONS);
    assertThat(
            PartitionConfinement.classify(
                    "select ticks from trestle_entity where (table_id = ? and partition_key = ? and"
                        + " row_key = ?)",
                    Map.of(1, 7L, 2, "a", 3, "r"))
                .kind())
        .isEqualTo(Kind.READ_ONE_PARTITION);
    assertThat(PartitionConfinement.classify("select id from trestle_table", Map.of())).isNull();
    assertThat(PartitionConfinement.classify("analyze trestle_entity", Map.of()).kind())
        .isEqualTo(Kind.DDL);
  }

  @Test
  void aTransactionWritingTwoPartitionsIsAViolation() {
    assertThat(
            PartitionConfinement.violations(
                List.of(
                    new Execution(LOCK, Map.of(3, "p")),
                    new Execution(INSERT, Map.of(1, 7L, 2, "p")),
                    new Execution(UPDATE, Map.of(3, 7L, 4, "p")))))
        .isEmpty();
    assertThat(
            PartitionConfinement.violations(
                List.of(
                    new Execution(INSERT, Map.of(1, 7L, 2, "p")),
                    new Execution(INSERT, Map.of(1, 7L, 2, "q")))))
        .singleElement()
        .asString()
        .contains("writes partitions");
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void theRecorderSeesEachTransactionOfAServiceWithItsBindValues_PostgreSQL(TestDatabase database)
      throws Exception {
    List<List<Execution>> transactions = new ArrayList<>();
    DataSource recorded =
        RecordingDataSource.wrap(
            database.dataSource(),
            transaction -> {
              synchronized (transactions) {
                transactions.add(transaction);
              }
            });
    try (TableService service =
        TableService.builder()
            .dataSource(recorded)
            .account(TestDatabase.newAccount())
            .migrate(false)
            .build()) {
      service.createTable("recorded");
      var table = service.tableClient("recorded");
      table.submitTransaction(
          List.of(
              TableOperation.insert(TableEntity.builder("p", "a").build()),
              TableOperation.insert(TableEntity.builder("p", "b").build())));
    }
    List<List<Execution>> touching =
        transactions.stream()
            .filter(t -> t.stream().anyMatch(e -> e.sql().contains("trestle_entity")))
            .toList();
    assertThat(touching).isNotEmpty();
    assertThat(touching).allSatisfy(t -> assertThat(PartitionConfinement.violations(t)).isEmpty());
    assertThat(touching.get(touching.size() - 1))
        .anySatisfy(e -> assertThat(e.binds()).containsValue("p"));

    // and one transaction over two partitions, sent around the store, is caught
    List<Execution> sent;
    try (Connection connection = recorded.getConnection()) {
      connection.setAutoCommit(false);
      for (String partition : List.of("x", "y")) {
        try (PreparedStatement statement =
            connection.prepareStatement(
                "select row_key from trestle_entity where table_id = ? and partition_key = ? for"
                    + " update")) {
          statement.setLong(1, -1);
          statement.setString(2, partition);
          statement.executeQuery();
        }
      }
      connection.rollback();
      connection.setAutoCommit(true);
    }
    synchronized (transactions) {
      sent = transactions.get(transactions.size() - 1);
    }
    assertThat(PartitionConfinement.violations(sent)).singleElement().asString().contains("[x, y]");
  }
}
