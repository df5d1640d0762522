package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.RawClient.Reply;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The extensions' string functions over HTTP: in their requests only, refused when switched off.
 */
class StringPredicatesHttpTest extends ServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] NAMES = {
    "100%", "100", "a_c", "abc", "ABC", "back\\slash", "\uD83D\uDE00 smile", "Smile"
  };

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private TableClient seeded() {
    TableClient table = fx.newTable("words");
    for (int i = 0; i < NAMES.length; i++) {
      table.createEntity(new TableEntity("p", "r" + i).addProperty("Name", NAMES[i]));
    }
    table.createEntity(new TableEntity("p", "r9").addProperty("Name", 100));
    return table;
  }

  private static List<String> rowKeys(Reply reply) throws Exception {
    List<String> keys = new ArrayList<>();
    for (JsonNode entity : JSON.readTree(reply.body()).get("value")) {
      keys.add(entity.get("RowKey").asText());
    }
    return keys;
  }

  private static String count(RawClient raw, String table, String filter) {
    Reply reply = raw.call("GET", "/" + table + "()/$count?$filter=" + enc(filter)).send();
    assertThat(reply.status()).as(filter).isEqualTo(200);
    return reply.body();
  }

  @DatabaseTest
  void countsOrdersAndDeletesWithTheStringFunctions(TableService tables) throws Exception {
    start(tables);
    String name = seeded().getTableName();
    RawClient raw = fx.raw();

    assertThat(count(raw, name, "contains(Name,'%')")).isEqualTo("1");
    assertThat(count(raw, name, "contains(Name,'_')")).isEqualTo("1");
    assertThat(count(raw, name, "endswith(Name,'\\slash')")).isEqualTo("1");
    assertThat(count(raw, name, "contains(Name,'\uD83D\uDE00')")).isEqualTo("1");
    assertThat(count(raw, name, "substringof('10', Name)")).as("not the Int32 100").isEqualTo("2");
    assertThat(count(raw, name, "tolower(Name) eq 'abc'")).isEqualTo("2");
    Reply smiles =
        raw.call(
                "GET",
                "/"
                    + name
                    + "()?trestle-orderby="
                    + enc("RowKey desc")
                    + "&$filter="
                    + enc("contains(tolower(Name),'smile')"))
            .send();
    assertThat(rowKeys(smiles)).containsExactly("r7", "r6");
    Reply deleted =
        raw.call(
                "DELETE",
                "/"
                    + name
                    + "()?trestle-delete=where&$filter="
                    + enc("startswith(toupper(Name),'A')"))
            .send();
    assertThat(deleted.body()).isEqualTo("{\"deleted\":3}");
  }

  @DatabaseTest
  void aStandardQueryAnswersTheFunctionsAsAzureDoes(TableService tables) {
    start(tables);
    String name = seeded().getTableName();
    RawClient raw = fx.raw();

    for (String filter :
        new String[] {"contains(Name,'a')", "endswith(Name,'a')", "tolower(Name) eq 'abc'"}) {
      assertError(
          raw.call("GET", "/" + name + "()?$filter=" + enc(filter)).send(), 400, "InvalidInput");
    }
  }

  @DatabaseTest
  void switchedOffTheFunctionsAreNotImplemented(TestDatabase database) {
    try (TableService off =
        TableService.builder()
            .dataSource(database.dataSource())
            .account(TestDatabase.newAccount())
            .migrate(false)
            .extensions(false)
            .build()) {
      start(off);
      String name = seeded().getTableName();
      RawClient raw = fx.raw();

      assertError(
          raw.call("GET", "/" + name + "()/$count?$filter=" + enc("contains(Name,'a')")).send(),
          501,
          "NotImplemented");
      assertError(
          raw.call(
                  "DELETE",
                  "/" + name + "()?trestle-delete=where&$filter=" + enc("endswith(Name,'c')"))
              .send(),
          501,
          "NotImplemented");
      assertError(
          raw.call("GET", "/" + name + "()?$filter=" + enc("contains(Name,'a')")).send(),
          400,
          "InvalidInput");
    }
  }
}
