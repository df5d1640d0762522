package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.testing.DatabaseTest;
import java.time.OffsetDateTime;
import java.util.List;

class SasTest extends ServerTest {

  private TableClient withSas(TableClient table, String sas) {
    return new TableClientBuilder()
        .endpoint(fx.endpoint())
        .tableName(table.getTableName())
        .sasToken(sas)
        .buildClient();
  }

  @DatabaseTest
  void aSasWithARepeatedParameterIsRefusedWhicheverValueIsValid(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("sasdup");
    String sas =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r")));
    assertThat(
            fx.raw()
                .call("GET", "/" + table.getTableName() + "()?" + sas)
                .unsigned()
                .send()
                .status())
        .isEqualTo(200);
    for (String repeated :
        new String[] {
          "&sig=junk", "&sp=raud", "&se=2099-01-01T00:00:00Z", "&tn=other", "&sv=2019-02-02"
        }) {
      RawClient.Reply reply =
          fx.raw()
              .call("GET", "/" + table.getTableName() + "()?" + sas + repeated)
              .unsigned()
              .send();
      assertErrorCode(reply, 403, "AuthenticationFailed");
    }
  }

  @DatabaseTest
  void anySasParameterGivenTwiceIsRefusedEvenOneTheSasKindDoesNotRead(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("sasdup2");
    String tableSas =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r")));
    String accountSas =
        fx.sdk()
            .generateAccountSas(
                new TableAccountSasSignatureValues(
                    OffsetDateTime.now().plusHours(1),
                    TableAccountSasPermission.parse("rl"),
                    TableAccountSasService.parse("t"),
                    TableAccountSasResourceType.parse("sco")));
    String path = "/" + table.getTableName() + "()?";
    assertThat(fx.raw().call("GET", path + accountSas).unsigned().send().status()).isEqualTo(200);
    for (String repeated :
        new String[] {
          "&sig=junk", "&ss=t", "&srt=sco", "&sp=rl", "&tn=x&tn=y", "&spk=a&spk=b", "&ses=1&ses=2"
        }) {
      assertErrorCode(
          fx.raw().call("GET", path + accountSas + repeated).unsigned().send(),
          403,
          "AuthenticationFailed");
    }
    for (String repeated :
        new String[] {"&ss=t&ss=t", "&si=a&si=b", "&sip=1.2.3.4&sip=1.2.3.4", "&spr=https,http"}) {
      RawClient.Reply reply =
          fx.raw().call("GET", path + tableSas + repeated + repeated).unsigned().send();
      assertErrorCode(reply, 403, "AuthenticationFailed");
    }
  }

  @DatabaseTest
  void readOnlyTableSasReadsButCannotWrite(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("sasro");
    table.createEntity(new TableEntity("p", "1").addProperty("V", "visible"));
    String sas =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r")));
    TableClient readOnly = withSas(table, sas);
    assertThat(readOnly.getEntity("p", "1").getProperty("V")).isEqualTo("visible");
    assertThat(readOnly.listEntities().stream().count()).isEqualTo(1);
    assertThatThrownBy(() -> readOnly.createEntity(new TableEntity("p", "2")))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(403));
    assertThat(table.listEntities().stream().count()).isEqualTo(1);
  }

  @DatabaseTest
  void keyRangeRestrictsQueriesAndWrites(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("sasrange");
    for (String pk : new String[] {"a", "b", "c"}) {
      table.createEntity(new TableEntity(pk, "r"));
    }
    String sas =
        table.generateSas(
            new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("raud"))
                .setStartPartitionKey("b")
                .setStartRowKey("0")
                .setEndPartitionKey("b")
                .setEndRowKey("zzz"));
    TableClient ranged = withSas(table, sas);
    assertThat(ranged.listEntities().stream().map(TableEntity::getPartitionKey))
        .containsExactly("b");
    ranged.upsertEntity(new TableEntity("b", "new"));
    assertThatThrownBy(() -> ranged.upsertEntity(new TableEntity("c", "new")))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(403));
  }

  /**
   * The range narrows the query itself: a page of $top=2 holds two entities of the range, not the
   * first two rows.
   */
  @DatabaseTest
  void aKeyRangedQueryPagesThroughTheRangeOnly(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("saspages");
    for (String pk : new String[] {"a", "b", "c"}) {
      for (String rk : new String[] {"1", "2", "3"}) {
        table.createEntity(new TableEntity(pk, rk));
      }
    }
    table.createEntity(new TableEntity("d", "1"));
    String sas =
        table.generateSas(
            new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r"))
                .setStartPartitionKey("b")
                .setStartRowKey("2")
                .setEndPartitionKey("c")
                .setEndRowKey("1"));
    List<List<String>> pages = new java.util.ArrayList<>();
    withSas(table, sas)
        .listEntities(new ListEntitiesOptions().setTop(2), null, null)
        .iterableByPage()
        .forEach(
            page ->
                pages.add(
                    page.getValue().stream()
                        .map(e -> e.getPartitionKey() + e.getRowKey())
                        .toList()));
    assertThat(pages).containsExactly(List.of("b2", "b3"), List.of("c1"));
  }

  @DatabaseTest
  void accountSasCreatesTablesAndWritesEntities(TableService tables) {
    start(tables);
    String sas =
        fx.sdk()
            .generateAccountSas(
                new TableAccountSasSignatureValues(
                    OffsetDateTime.now().plusHours(1),
                    TableAccountSasPermission.parse("rwdlacu"),
                    TableAccountSasService.parse("t"),
                    TableAccountSasResourceType.parse("sco")));
    TableServiceClient viaSas =
        new TableServiceClientBuilder().endpoint(fx.endpoint()).sasToken(sas).buildClient();
    String name = ServerFixture.uniqueName("acctsas");
    viaSas.createTable(name);
    viaSas.getTableClient(name).createEntity(new TableEntity("p", "r").addProperty("V", 1));
    assertThat(fx.sdk().getTableClient(name).getEntity("p", "r").getProperty("V")).isEqualTo(1);

    String listOnly =
        fx.sdk()
            .generateAccountSas(
                new TableAccountSasSignatureValues(
                    OffsetDateTime.now().plusHours(1),
                    TableAccountSasPermission.parse("l"),
                    TableAccountSasService.parse("t"),
                    TableAccountSasResourceType.parse("c")));
    RawClient.Reply denied =
        fx.raw()
            .call("POST", "/" + name + "?" + listOnly)
            .unsigned()
            .json("{\"PartitionKey\":\"p\",\"RowKey\":\"x\"}")
            .send();
    assertThat(denied.status()).isEqualTo(403);
  }

  @DatabaseTest
  void batchOperationsAreCheckedAgainstTheSasPermissions(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("sasbatch");
    TableClient adder =
        withSas(
            table,
            table.generateSas(
                new TableSasSignatureValues(
                    OffsetDateTime.now().plusHours(1), TableSasPermission.parse("a"))));
    adder.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("b", "1")),
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("b", "2"))));
    assertThat(table.listEntities().stream().count()).isEqualTo(2);
    assertThatThrownBy(
            () ->
                adder.submitTransaction(
                    List.of(
                        new TableTransactionAction(
                            TableTransactionActionType.CREATE, new TableEntity("b", "3")),
                        new TableTransactionAction(
                            TableTransactionActionType.DELETE, new TableEntity("b", "1")))))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(403));
    assertThat(table.listEntities().stream().count()).isEqualTo(2);
  }

  @DatabaseTest
  void expiredSasIsRejected(TableService tables) {
    start(tables);
    TableClient table = fx.newTable("sasold");
    String sas =
        table.generateSas(
            new TableSasSignatureValues(
                OffsetDateTime.now().minusMinutes(5), TableSasPermission.parse("r")));
    RawClient.Reply reply =
        fx.raw().call("GET", "/" + table.getTableName() + "()?" + sas).unsigned().send();
    assertErrorCode(reply, 403, "AuthenticationFailed");
  }
}
