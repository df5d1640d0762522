package dev.trestle.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceAsyncClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** What {@code @TrestleTest} injects, and that it all points at one server. */
class InjectionTest {

  @Test
  void everyParameterTypeIsInjectedAndAgrees() {
    EngineRun.passes(5, Injected.class);
  }

  @Test
  void aParameterAnnotationOnTheWrongTypeFailsTheTestNamingTheFix() {
    EngineExecutionResults results = EngineRun.run(WrongType.class);
    assertThat(results.testEvents().failed().stream().map(EngineRun::describe))
        .singleElement()
        .asString()
        .contains("@ConnectionString goes on a String parameter, not on int");
  }

  @TrestleTest
  static class Injected {
    static String fromBeforeAll;
    Trestle fromConstructor;

    Injected(Trestle trestle) {
      fromConstructor = trestle;
    }

    @BeforeAll
    static void beforeAll(@ConnectionString String connectionString) {
      fromBeforeAll = connectionString;
    }

    @BeforeEach
    void beforeEach(Trestle trestle) {
      assertThat(trestle).isSameAs(fromConstructor);
    }

    @Test
    void handle(Trestle trestle, @ConnectionString String connectionString) {
      assertThat(trestle.accountName()).isEqualTo("devstoreaccount1");
      assertThat(trestle.accountKey()).isEqualTo(TrestleServer.DEV_ACCOUNT_KEY);
      assertThat(trestle.endpoint())
          .isEqualTo("http://127.0.0.1:" + trestle.port() + "/devstoreaccount1");
      assertThat(connectionString)
          .isEqualTo(trestle.connectionString())
          .isEqualTo(fromBeforeAll)
          .isEqualTo(
              "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                  + TrestleServer.DEV_ACCOUNT_KEY
                  + ";TableEndpoint="
                  + trestle.endpoint()
                  + ";");
    }

    @Test
    void endpointAsStringAndUri(
        Trestle trestle, @Endpoint String endpoint, @Endpoint URI endpointUri) {
      assertThat(endpoint).isEqualTo(trestle.endpoint());
      assertThat(endpointUri).isEqualTo(URI.create(trestle.endpoint()));
      assertThat(endpointUri.getPort()).isEqualTo(trestle.port()).isPositive();
    }

    @Test
    void sdkClientAndEmbeddedLibrarySeeTheSameData(
        TableServiceClient service, TableService library) {
      TableClient sdkTable = service.createTable("injected");
      sdkTable.createEntity(new TableEntity("p", "r").addProperty("Total", 9.5));

      assertThat(library.tableClient("injected").get("p", "r").getDouble("Total")).isEqualTo(9.5);
      library
          .tableClient("injected")
          .insert(dev.trestle.TableEntity.builder("p", "s").put("Total", 1.5).build());
      assertThat(sdkTable.getEntity("p", "s").getProperty("Total")).isEqualTo(1.5);
    }

    @Test
    void theSdkClientIsSharedAndTheAsyncClientWorks(
        TableServiceClient first, TableServiceClient second, TableServiceAsyncClient async) {
      assertThat(first).isSameAs(second);
      assertThat(async.createTable("asynctable").block().getTableName()).isEqualTo("asynctable");
      assertThat(first.getTableClient("asynctable").listEntities()).isEmpty();
    }

    @Test
    void closingTheInjectedLibraryLeavesTheServerRunning(TableService library, Trestle trestle) {
      library.close();
      assertThat(trestle.tableService().listTables()).isNotNull();
      trestle.tableService().createTableIfNotExists("stillopen");
      assertThat(List.of(trestle.tableService().getTable("stillopen").isPresent()))
          .containsExactly(true);
    }
  }

  @Test
  void severalAccountsEachWithItsConnectionString() {
    EngineRun.passes(1, TwoAccounts.class);
  }

  static class TwoAccounts {
    static final String OTHER_KEY = java.util.Base64.getEncoder().encodeToString(new byte[64]);

    @org.junit.jupiter.api.extension.RegisterExtension
    static TrestleExtension trestle =
        TrestleExtension.builder()
            .account("firstaccount", TrestleServer.DEV_ACCOUNT_KEY)
            .account("secondaccount", OTHER_KEY)
            .build();

    @Test
    void each(Trestle trestle, TableServiceClient first) {
      assertThat(trestle.connectionString("secondaccount"))
          .contains("AccountName=secondaccount;AccountKey=" + OTHER_KEY + ";")
          .contains("TableEndpoint=http://127.0.0.1:" + trestle.port() + "/secondaccount;");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> trestle.endpoint("devstoreaccount1"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("[firstaccount, secondaccount]");

      first.createTable("infirst");
      TableServiceClient second =
          new com.azure.data.tables.TableServiceClientBuilder()
              .connectionString(trestle.connectionString("secondaccount"))
              .buildClient();
      second.createTable("insecond");
      assertThat(first.listTables()).extracting(t -> t.getName()).containsExactly("infirst");
      assertThat(second.listTables()).extracting(t -> t.getName()).containsExactly("insecond");
      trestle.reset();
      assertThat(second.listTables()).isEmpty();
    }
  }

  @TrestleTest
  static class WrongType {
    @Test
    void wrong(@ConnectionString int connectionString) {}
  }
}
