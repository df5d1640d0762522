package dev.trestle.server.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableException;
import org.junit.jupiter.api.Test;

class RouteParserTest {

  @Test
  void parsesEveryResourceForm() {
    assertThat(ResourcePath.parse("/acct").route()).isEqualTo(new Route.ServiceRoot());
    assertThat(ResourcePath.parse("/acct/").route()).isEqualTo(new Route.ServiceRoot());
    assertThat(ResourcePath.parse("/acct/Tables").route()).isEqualTo(new Route.TableCollection());
    assertThat(ResourcePath.parse("/acct/Tables()").route()).isEqualTo(new Route.TableCollection());
    assertThat(ResourcePath.parse("/acct/Tables('t1')").route())
        .isEqualTo(new Route.TableResource("t1"));
    assertThat(ResourcePath.parse("/acct/$batch").route()).isEqualTo(new Route.Batch());
    assertThat(ResourcePath.parse("/acct/t1").route()).isEqualTo(new Route.EntitySet("t1"));
    assertThat(ResourcePath.parse("/acct/t1()").route()).isEqualTo(new Route.EntitySet("t1"));
    assertThat(ResourcePath.parse("/acct/t1(PartitionKey='a',RowKey='b')"))
        .isEqualTo(new ResourcePath("acct", new Route.EntityResource("t1", "a", "b")));
  }

  @Test
  void decodesKeysAndUnescapesDoubledQuotes() {
    assertThat(ResourcePath.parse("/acct/t1(PartitionKey='a%20b',RowKey='O''x%27%27y')").route())
        .isEqualTo(new Route.EntityResource("t1", "a b", "O'x'y"));
    assertThat(ResourcePath.parse("/acct/t1(PartitionKey='(x),y',RowKey='')").route())
        .isEqualTo(new Route.EntityResource("t1", "(x),y", ""));
    assertThat(ResourcePath.parse("/acct/t1(RowKey='r',PartitionKey='p')").route())
        .isEqualTo(new Route.EntityResource("t1", "p", "r"));
    assertThat(ResourcePath.parse("/acct/t1(PartitionKey='%C3%A9',RowKey='%F0%9F%98%80')").route())
        .isEqualTo(new Route.EntityResource("t1", "é", "😀"));
  }

  @Test
  void toleratesOneTrailingSlashAsJoinedUrlsHave() {
    assertThat(ResourcePath.parse("/acct/Tables/").route()).isEqualTo(new Route.TableCollection());
    assertThat(ResourcePath.parse("/acct/$batch/").route()).isEqualTo(new Route.Batch());
    assertThat(ResourcePath.parse("/acct/t1/").route()).isEqualTo(new Route.EntitySet("t1"));
    assertThat(ResourcePath.parse("/acct/t1(PartitionKey='a',RowKey='b')/").route())
        .isEqualTo(new Route.EntityResource("t1", "a", "b"));
    assertThatThrownBy(() -> ResourcePath.parse("/acct/t1//")).isInstanceOf(TableException.class);
  }

  @Test
  void rejectsMalformedPathsAsInvalidInput() {
    for (String path :
        new String[] {
          "/acct/t1(PartitionKey='a')",
          "/acct/t1(PartitionKey='a',RowKey='b'",
          "/acct/t1(PartitionKey='a',RowKey='b')x",
          "/acct/t1(PartitionKey='a%2Fb',RowKey='b')",
          "/acct/t1(PartitionKey='a',PartitionKey='b')",
          "/acct/t1/x",
          "/acct/t1(PartitionKey='%E0',RowKey='b')",
          "/acct/t1(PartitionKey='%zz',RowKey='b')",
          "/"
        }) {
      assertThatThrownBy(() -> ResourcePath.parse(path))
          .as(path)
          .isInstanceOfSatisfying(
              TableException.class,
              e -> assertThat(e.errorCode().code()).isEqualTo("InvalidInput"));
    }
  }
}
