package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.testing.ClockedServices;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.FakeClock;
import dev.trestle.testing.TestDatabase;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.assertj.core.api.Assertions;

/** A table's time to live over HTTP, with the server's time from a fake clock. */
class TimeToLiveHttpTest extends ServerTest {
  private final FakeClock clock = new FakeClock();

  private static int status(Runnable call) {
    Throwable failure = Assertions.catchThrowable(call::run);
    assertThat(failure).isInstanceOf(TableServiceException.class);
    return ((TableServiceException) failure).getResponse().getStatusCode();
  }

  @DatabaseTest
  void setReadAndExpireOverHttp(TestDatabase database) {
    try (TableService tables =
        ClockedServices.open(database, clock, true, TestDatabase.newAccount())) {
      start(tables);
      TableClient table = fx.newTable("ttl");
      String path = "/" + table.getTableName();
      RawClient raw = fx.raw();

      assertThat(raw.call("GET", path + "?trestle-ttl").send().body())
          .isEqualTo("{\"enabled\":false,\"defaultTtl\":null}");
      assertThat(raw.call("PUT", path + "()?trestle-ttl=60").send().status()).isEqualTo(204);
      assertThat(raw.call("GET", path + "()?trestle-ttl=").send().body())
          .isEqualTo("{\"enabled\":true,\"defaultTtl\":60}");
      table.createEntity(new TableEntity("p", "default").addProperty("N", 1));
      table.createEntity(
          new TableEntity("p", "own")
              .addProperty(
                  "TrestleExpires",
                  OffsetDateTime.ofInstant(clock.instant().plusSeconds(3600), ZoneOffset.UTC)));
      clock.advance(Duration.ofSeconds(61));

      assertThat(status(() -> table.getEntity("p", "default"))).isEqualTo(404);
      assertThat(table.listEntities().stream().map(TableEntity::getRowKey)).containsExactly("own");
      assertThat(raw.call("GET", path + "()/$count").send().body()).isEqualTo("1");
      assertThat(raw.call("GET", path + "(PartitionKey='p',RowKey='default')/$count").send().body())
          .isEqualTo("0");
      assertThat(
              status(() -> table.updateEntity(new TableEntity("p", "default").addProperty("N", 2))))
          .isEqualTo(404);
      table.createEntity(new TableEntity("p", "default").addProperty("N", 3));
      assertThat(table.getEntity("p", "default").getProperty("N")).isEqualTo(3);

      assertThat(raw.call("PUT", path + "()?trestle-ttl=off").send().status()).isEqualTo(204);
      assertThat(raw.call("GET", path + "()?trestle-ttl").send().body())
          .isEqualTo("{\"enabled\":false,\"defaultTtl\":null}");
    }
  }

  @DatabaseTest
  void aBadValueIsInvalidAndASasMayNotChangeTheSetting(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("ttl");
    String path = "/" + table.getTableName();
    RawClient raw = fx.raw();
    String everything =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("raud")));

    assertError(
        raw.call("PUT", path + "()?trestle-ttl=-5").send(), 400, "InvalidQueryParameterValue");
    assertError(
        raw.call("PUT", path + "()?trestle-ttl=soon").send(), 400, "InvalidQueryParameterValue");
    assertThat(raw.call("PUT", path + "()?trestle-ttl=60&" + everything).unsigned().send().status())
        .isEqualTo(403);
    assertThat(raw.call("GET", path + "()?trestle-ttl&" + everything).unsigned().send().status())
        .isEqualTo(403);
    assertError(raw.call("PUT", "/nosuchtable()?trestle-ttl=60").send(), 404, "TableNotFound");
  }

  @DatabaseTest
  void withExtensionsOffTheSettingIsNotImplementedAndExpiredEntitiesStayAbsent(
      TestDatabase database) {
    String account = TestDatabase.newAccount();
    try (TableService on = ClockedServices.open(database, clock, true, account);
        TableService off = ClockedServices.open(database, clock, false, account)) {
      on.createTable("kept");
      on.tableClient("kept")
          .extensions()
          .timeToLive(dev.trestle.TimeToLive.of(Duration.ofSeconds(60)));
      on.tableClient("kept").insert(dev.trestle.TableEntity.builder("p", "r").build());
      clock.advance(Duration.ofSeconds(61));
      start(off);
      RawClient raw = fx.raw();

      assertError(raw.call("GET", "/kept()?trestle-ttl").send(), 501, "NotImplemented");
      assertError(raw.call("PUT", "/kept()?trestle-ttl=off").send(), 501, "NotImplemented");
      TableClient kept = fx.sdk().getTableClient("kept");
      assertThat(status(() -> kept.getEntity("p", "r"))).isEqualTo(404);
      assertThat(kept.listEntities().stream()).isEmpty();
    }
  }
}
