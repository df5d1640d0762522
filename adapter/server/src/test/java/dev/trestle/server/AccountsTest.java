package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableItem;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.testing.DatabaseTest;
import java.util.Base64;
import java.util.List;

/** One server, several accounts, each with its own keys and its own tables. */
class AccountsTest extends ServerTest {
  private static final String OTHER_KEY =
      Base64.getEncoder().encodeToString("another account's key 0123456789".getBytes());

  @DatabaseTest
  void accountsAreSeparateAndUseTheirOwnKeys(TableService tables) {
    String other = "o" + Long.toString(System.nanoTime(), 36);
    fx =
        new ServerFixture(
            tables.accountName(),
            TrestleServer.builder(tables)
                .port(0)
                .account(tables.accountName(), TrestleServer.DEV_ACCOUNT_KEY)
                .account(other, OTHER_KEY));
    String name = ServerFixture.uniqueName("acct");
    fx.sdk().createTable(name);

    TableServiceClient otherClient =
        new TableServiceClientBuilder()
            .endpoint(fx.server().endpoint(other))
            .credential(new AzureNamedKeyCredential(other, OTHER_KEY))
            .buildClient();
    List<String> otherTables = otherClient.listTables().stream().map(TableItem::getName).toList();
    assertThat(otherTables).doesNotContain(name);
    otherClient.createTable(name);
    assertThat(otherClient.listTables().stream().map(TableItem::getName)).containsExactly(name);

    RawClient devKeyOnOther =
        new RawClient(fx.server().endpoint(other), other, TrestleServer.DEV_ACCOUNT_KEY);
    assertThat(devKeyOnOther.call("GET", "/Tables").send().status()).isEqualTo(403);
    RawClient unknown =
        new RawClient(fx.server().endpoint("nosuchaccount"), "nosuchaccount", OTHER_KEY);
    assertThat(unknown.call("GET", "/Tables").send().status()).isEqualTo(403);
  }
}
