package dev.trestle.store;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.List;

/**
 * PostgreSQL only: a database that refuses writes (a standby after a failover, {@code
 * default_transaction_read_only}) is the database's condition, not the request's: writes are
 * ServerBusy, which the SDKs retry, never an internal error, and reads go on.
 */
class ReadOnlyDatabaseTest {

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL)
  void writesToAReadOnlyDatabaseAreServerBusyAndReadsGoOn(TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (TableService writable =
        TableService.builder()
            .dataSource(database.dataSource())
            .account(account)
            .migrate(false)
            .build()) {
      writable.createTable("readonly");
      writable.tableClient("readonly").insert(TableEntity.builder("p", "r").put("n", 1).build());
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database.jdbcUrl());
    config.setUsername(database.username());
    config.setPassword(database.password());
    config.setSchema(database.schema());
    // what ALTER DATABASE ... SET default_transaction_read_only does, or a standby's sessions
    config.setConnectionInitSql("set default_transaction_read_only = on");
    config.setMaximumPoolSize(2);
    try (HikariDataSource readOnly = new HikariDataSource(config);
        TableService service =
            TableService.builder().dataSource(readOnly).account(account).migrate(false).build()) {
      TableClient table = service.tableClient("readonly");
      assertThat(table.get("p", "r").properties().get("n").value()).isEqualTo(1);
      TableEntity other = TableEntity.builder("p", "s").build();
      assertFails(TableErrorCode.SERVER_BUSY, () -> table.insert(other));
      assertFails(TableErrorCode.SERVER_BUSY, () -> table.upsertReplace(other));
      assertFails(
          TableErrorCode.SERVER_BUSY,
          () -> table.submitTransaction(List.of(TableOperation.insert(other))));
      assertFails(TableErrorCode.SERVER_BUSY, () -> table.delete("p", "r", "*"));
      assertThat(table.listEntities().stream().count()).isEqualTo(1);
    }
  }
}
