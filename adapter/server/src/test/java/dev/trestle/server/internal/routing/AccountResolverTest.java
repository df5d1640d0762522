package dev.trestle.server.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class AccountResolverTest {
  private final AccountResolver resolver =
      new AccountResolver(Set.of("devstoreaccount1", "MyAccount"), true);

  @Test
  void aHostStartingWithAServedAccountNamesIt() {
    assertThat(resolver.accountOf("devstoreaccount1.table.core.windows.net"))
        .isEqualTo("devstoreaccount1");
    assertThat(resolver.accountOf("devstoreaccount1.localhost:10002"))
        .isEqualTo("devstoreaccount1");
    assertThat(resolver.accountOf("DevStoreAccount1.Table.Corp.Example:443"))
        .isEqualTo("devstoreaccount1");
    assertThat(resolver.accountOf("myaccount.table.corp.example")).isEqualTo("MyAccount");
    assertThat(resolver.accountOf("devstoreaccount1-secondary.table.corp.example"))
        .isEqualTo("devstoreaccount1-secondary");
  }

  @Test
  void addressesSingleLabelsAndOtherNamesLeaveTheAccountToThePath() {
    for (String host :
        new String[] {
          "127.0.0.1:10002",
          "127.0.0.1",
          "[::1]:10002",
          "localhost:10002",
          "devstoreaccount1:10002", // a single label (a container's name), not a host-style URL
          "trestle.corp.example",
          "other.table.core.windows.net",
          "other-secondary.localhost",
          "",
          null
        }) {
      assertThat(resolver.accountOf(host)).as(host).isNull();
    }
  }

  @Test
  void hostStyleTakesTheWholePathAsTheResource() {
    ResourcePath path =
        resolver.resolve("devstoreaccount1.localhost:10002", "/t1(PartitionKey='a',RowKey='b')");
    assertThat(path)
        .isEqualTo(
            new ResourcePath("devstoreaccount1", new Route.EntityResource("t1", "a", "b"), true));
    assertThat(resolver.resolve("devstoreaccount1.localhost", "/").route())
        .isEqualTo(new Route.ServiceRoot());
    assertThat(resolver.resolve("devstoreaccount1.localhost", "/Tables").route())
        .isEqualTo(new Route.TableCollection());
    assertThat(resolver.resolve("127.0.0.1:10002", "/devstoreaccount1/Tables"))
        .isEqualTo(new ResourcePath("devstoreaccount1", new Route.TableCollection(), false));
  }

  @Test
  void aPathStylePathSentToAnAccountsHostNameIsReadAsPathStyle() {
    assertThat(resolver.resolve("devstoreaccount1.localhost", "/devstoreaccount1/Tables"))
        .isEqualTo(new ResourcePath("devstoreaccount1", new Route.TableCollection(), false));
    // no host-style resource has a slash inside, but /devstoreaccount1 alone is a table's name
    assertThat(resolver.resolve("devstoreaccount1.localhost", "/devstoreaccount1").route())
        .isEqualTo(new Route.EntitySet("devstoreaccount1"));
    assertThat(resolver.resolve("devstoreaccount1.localhost", "/devstoreaccount1/").route())
        .isEqualTo(new Route.EntitySet("devstoreaccount1"));
  }

  @Test
  void switchedOffEveryHostIsPathStyle() {
    AccountResolver pathOnly = new AccountResolver(Set.of("devstoreaccount1"), false);
    assertThat(pathOnly.resolve("devstoreaccount1.localhost", "/Tables").account())
        .isEqualTo("Tables");
  }
}
