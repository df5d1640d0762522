package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.HandWrittenRows;
import dev.trestle.testing.TestDatabase;

/**
 * Over HTTP a malformed row written by SQL answers a clear Azure error naming the row (500
 * InternalError, JSON body, no stack trace), for a point read and for a query page holding it;
 * queries whose pages do not hold it still answer.
 */
class MalformedRowHttpTest extends ServerTest {
  private static final String MESSAGE =
      "The stored entity in table 'things', PartitionKey 'p', RowKey 'bad' is malformed:"
          + " property 'A' of type Edm.Int32 holds the string \\\"seven\\\"."
          + " It was not written by Trestle; fix or delete the row in SQL (see sql/README.md).";

  @DatabaseTest
  void aMalformedRowAnswersInternalErrorNamingTheRow(TableService tables, TestDatabase database)
      throws Exception {
    start(tables);
    tables.createTable("things");
    tables.tableClient("things").insert(TableEntity.builder("p", "a").put("A", 1).build());
    tables.tableClient("things").insert(TableEntity.builder("q", "c").put("A", 3).build());
    HandWrittenRows.insert(
        database,
        tables.accountName(),
        "things",
        "p",
        "bad",
        17_000_000_000_000_000L,
        "{\"A\": [\"i\", \"seven\", 0]}");
    if (database.kind() == TestDatabase.Kind.POSTGRESQL_SCALAR_STORE) {
      // and its scalar row, as sql/README.md asks of hand-written rows: filters read it
      try (java.sql.Connection connection = database.dataSource().getConnection();
          java.sql.PreparedStatement scalars =
              connection.prepareStatement(
                  "insert into trestle_entity_scalar"
                      + " (table_id, partition_key, row_key, scalars, signature)"
                      + " select table_id, partition_key, row_key, trestle_scalars(properties),"
                      + " trestle_string_signature(properties) from trestle_entity"
                      + " where row_key = 'bad'"
                      + " and table_id = (select id from trestle_table where account = ?"
                      + " and name_key = 'things')")) {
        scalars.setString(1, tables.accountName());
        assertThat(scalars.executeUpdate()).isEqualTo(1);
      }
    }

    for (String path : new String[] {"/things(PartitionKey='p',RowKey='bad')", "/things()"}) {
      RawClient.Reply reply = fx.raw().call("GET", path).send();
      assertThat(reply.status()).as(path).isEqualTo(500);
      assertThat(reply.header("x-ms-error-code")).as(path).isEqualTo("InternalError");
      assertThat(reply.body()).as(path).contains(MESSAGE).doesNotContain("at dev.trestle");
    }
    // a filter that compares the bad value fails in the database, which cannot name the row
    RawClient.Reply filtered = fx.raw().call("GET", "/things()?$filter=A%20eq%201").send();
    assertThat(filtered.status()).isEqualTo(500);
    assertThat(filtered.header("x-ms-error-code")).isEqualTo("InternalError");
    assertThat(filtered.body())
        .contains("A stored value of this table is not of the type its tag says")
        .contains("seven")
        .contains("reading the table without a filter names it");
    RawClient.Reply good = fx.raw().call("GET", "/things()?$filter=PartitionKey%20eq%20'q'").send();
    assertThat(good.status()).isEqualTo(200);
    assertThat(good.body()).contains("\"RowKey\":\"c\"");
  }
}
