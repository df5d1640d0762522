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
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** {@code trestle-orderby=<property> asc|desc&trestle-orderby-type=...} over HTTP. */
class OrderByPropertyHttpTest extends ServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Price: Int32, Int64, Double (many equal), a string, or missing. */
  private List<TableEntity> seeded(TableClient table) {
    Random random = new Random(7);
    List<TableEntity> all = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      TableEntity entity = new TableEntity("p" + (i % 3), String.format("r%02d", i));
      switch (random.nextInt(5)) {
        case 0 -> entity.addProperty("Price", random.nextInt(4));
        case 1 -> entity.addProperty("Price", (long) random.nextInt(4));
        case 2 -> entity.addProperty("Price", random.nextInt(8) / 2.0);
        case 3 -> entity.addProperty("Price", "2");
        default -> {}
      }
      table.createEntity(entity);
      all.add(entity);
    }
    return all;
  }

  private static BigDecimal price(TableEntity entity) {
    return switch (entity.getProperty("Price")) {
      case Integer i -> BigDecimal.valueOf(i);
      case Long l -> BigDecimal.valueOf(l);
      case Double d -> new BigDecimal(d);
      case null, default -> null;
    };
  }

  /** Numbers descending, then the keys descending; entities without a number last. */
  private static List<String> expectedDescending(List<TableEntity> all) {
    Comparator<TableEntity> order =
        Comparator.comparing(OrderByPropertyHttpTest::price)
            .thenComparing(TableEntity::getPartitionKey)
            .thenComparing(TableEntity::getRowKey)
            .reversed();
    List<TableEntity> numbers = all.stream().filter(e -> price(e) != null).sorted(order).toList();
    List<TableEntity> others =
        all.stream()
            .filter(e -> price(e) == null)
            .sorted(
                Comparator.comparing(TableEntity::getPartitionKey)
                    .thenComparing(TableEntity::getRowKey)
                    .reversed())
            .toList();
    List<String> keys = new ArrayList<>();
    for (List<TableEntity> part : List.of(numbers, others)) {
      part.forEach(e -> keys.add(e.getPartitionKey() + "/" + e.getRowKey()));
    }
    return keys;
  }

  private static List<String> keys(Reply reply) throws Exception {
    List<String> keys = new ArrayList<>();
    for (JsonNode entity : JSON.readTree(reply.body()).get("value")) {
      keys.add(entity.get("PartitionKey").asText() + "/" + entity.get("RowKey").asText());
    }
    return keys;
  }

  @DatabaseTest
  void pagesByAPropertyDescendingAsAJavaSortDoes(TableService tables) throws Exception {
    start(tables);
    TableClient table = fx.newTable("ordered");
    List<TableEntity> all = seeded(table);
    RawClient raw = fx.raw();
    String base =
        "/"
            + table.getTableName()
            + "()?trestle-orderby="
            + enc("Price desc")
            + "&trestle-orderby-type=Edm.Int32&$filter="
            + enc("PartitionKey ne 'p1'")
            + "&$top=4";

    List<String> collected = new ArrayList<>();
    Reply page = raw.call("GET", base).send();
    assertThat(page.status()).isEqualTo(200);
    collected.addAll(keys(page));
    while (page.header("x-ms-continuation-NextPartitionKey") != null) {
      page =
          raw.call(
                  "GET",
                  base
                      + "&NextPartitionKey="
                      + enc(page.header("x-ms-continuation-NextPartitionKey"))
                      + "&NextRowKey="
                      + enc(page.header("x-ms-continuation-NextRowKey")))
              .send();
      assertThat(page.status()).isEqualTo(200);
      collected.addAll(keys(page));
    }

    assertThat(collected)
        .doesNotHaveDuplicates()
        .containsExactlyElementsOf(
            expectedDescending(
                all.stream().filter(e -> !e.getPartitionKey().equals("p1")).toList()));
    assertThat(
            keys(
                raw.call("GET", "/" + table.getTableName() + "()?trestle-orderby=RowKey&$top=2")
                    .send()))
        .containsExactly("p0/r00", "p1/r01");
  }

  @DatabaseTest
  void refusesAnInvalidOrderBy(TableService tables) {
    start(tables);
    String name = fx.newTable("ordered").getTableName();
    RawClient raw = fx.raw();

    for (String bad :
        List.of(
            "trestle-orderby=Price",
            "trestle-orderby=" + enc("Price up") + "&trestle-orderby-type=Edm.Int32",
            "trestle-orderby=" + enc("Price desc") + "&trestle-orderby-type=Edm.Money",
            "trestle-orderby=" + enc("RowKey desc") + "&trestle-orderby-type=Edm.Int32",
            "trestle-orderby=" + enc("A,B") + "&trestle-orderby-type=Edm.Int32",
            "trestle-orderby=" + enc(" ") + "&trestle-orderby-type=Edm.Int32")) {
      assertError(
          raw.call("GET", "/" + name + "()?" + bad).send(), 400, "InvalidQueryParameterValue");
    }
    assertError(
        raw.call(
                "GET",
                "/"
                    + name
                    + "()?trestle-orderby=Price&trestle-orderby-type=Edm.Int32"
                    + "&NextPartitionKey=1!AHA&NextRowKey=1!AHI")
            .send(),
        400,
        "InvalidInput");
  }

  @DatabaseTest
  void switchedOffIsNotImplemented(TestDatabase database) {
    try (TableService off =
        TableService.builder()
            .dataSource(database.dataSource())
            .account(TestDatabase.newAccount())
            .migrate(false)
            .extensions(false)
            .build()) {
      start(off);
      String name = fx.newTable("ordered").getTableName();

      assertError(
          fx.raw()
              .call("GET", "/" + name + "()?trestle-orderby=Price&trestle-orderby-type=Edm.Int32")
              .send(),
          501,
          "NotImplemented");
    }
  }
}
