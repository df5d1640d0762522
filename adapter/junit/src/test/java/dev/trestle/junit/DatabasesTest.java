package dev.trestle.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import javax.sql.DataSource;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The extension in code, on a caller's DataSource: each behaviour on H2 and PostgreSQL. Each run
 * serves a fresh account, so the databases the module's tests share hold nothing of another run.
 */
class DatabasesTest {
  static DataSource dataSource;
  static String account;
  static final String KEY = TrestleServer.DEV_ACCOUNT_KEY;

  @DatabaseTest
  void theSdkWorksAgainstTheServerAndResetsHoldPerTest(TestDatabase database) {
    dataSource = database.dataSource();
    account = TestDatabase.newAccount();
    EngineRun.passes(3, OnDataSource.class);
  }

  @DatabaseTest
  void dataWrittenThroughTheServerIsInTheDatabase(TestDatabase database) {
    dataSource = database.dataSource();
    account = TestDatabase.newAccount();
    EngineRun.passes(1, WritesThroughTheServer.class);
    try (TableService tables =
        TableService.builder().dataSource(database.dataSource()).account(account).build()) {
      assertThat(tables.tableClient("kept").get("p", "r").getString("Name")).isEqualTo("kept");
    }
  }

  @Test
  void settingsThatCannotWorkTogetherAreRefusedNamingTheFix() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                TrestleExtension.builder()
                    .jdbcUrl("jdbc:h2:mem:x")
                    .dataSource(new org.h2.jdbcx.JdbcDataSource())
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Set at most one of jdbcUrl(...) or dataSource(...)");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> TrestleExtension.builder().port(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Registered on the instance, so each test gets a new extension object: one server still. */
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class OnDataSource {
    @RegisterExtension
    TrestleExtension trestle =
        TrestleExtension.builder()
            .dataSource(dataSource)
            .account(account, KEY)
            .reset(Reset.PER_TEST)
            .build();

    @Test
    @Order(1)
    void servesTheConfiguredAccount(Trestle trestle, @ConnectionString String connectionString) {
      assertThat(trestle.accountName()).isEqualTo(account);
      assertThat(connectionString).contains("AccountName=" + account + ";");
      assertThat(trestle.endpoint()).endsWith("/" + account);
    }

    @Test
    @Order(2)
    void sdkRoundTrip(TableServiceClient service, TableService library) {
      assertThat(service.listTables()).isEmpty();
      service.createTable("orders").createEntity(new TableEntity("p", "r").addProperty("N", 7L));
      assertThat(library.tableClient("orders").get("p", "r").getInt64("N")).isEqualTo(7L);
    }

    @Test
    @Order(3)
    void theNextTestStartsEmpty(TableServiceClient service) {
      assertThat(service.listTables().stream().map(TableItem::getName)).isEmpty();
    }
  }

  static class WritesThroughTheServer {
    @RegisterExtension
    TrestleExtension trestle =
        TrestleExtension.builder().dataSource(dataSource).account(account, KEY).build();

    @Test
    void writes(TableServiceClient service) {
      service
          .createTable("kept")
          .createEntity(new TableEntity("p", "r").addProperty("Name", "kept"));
    }
  }
}
