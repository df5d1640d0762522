package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.model.TableLimits;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase.Kind;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Equality on every type with one stored form, on values whose stored text is encoded (U+0000,
 * U+0001, surrogates, the private-use area) or looks like a type tag or a position: each finds
 * exactly the entities holding the value, also where PostgreSQL's property index serves equalities
 * and where the scalar store's signatures rule rows out.
 */
class PropertyEqualityTest {
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);

  private static final List<PropertyValue> VALUES =
      List.of(
          PropertyValue.of(""),
          PropertyValue.of("s"),
          PropertyValue.of("0"),
          PropertyValue.of("a\u0000b"),
          PropertyValue.of("\u0001"),
          PropertyValue.of("\u0001\u0001"),
          PropertyValue.of("x\uD800"),
          PropertyValue.of("\uDC00y"),
          PropertyValue.of("\uE000"),
          PropertyValue.of("\uFFFF"),
          PropertyValue.of("\uD83D\uDE00"),
          PropertyValue.of("o'k \"q\" \\"),
          PropertyValue.of("caf\u00e9"),
          // around the scalar store's copy limit (64 characters of stored text)
          PropertyValue.of("a".repeat(64)),
          PropertyValue.of("a".repeat(65)),
          PropertyValue.of("\uD83D\uDE00".repeat(40)),
          PropertyValue.of(new UUID(0, 0)),
          PropertyValue.of(new UUID(-1, 0xab)),
          PropertyValue.of(new byte[0]),
          PropertyValue.of(new byte[] {0, (byte) 0xff}),
          PropertyValue.of(true),
          PropertyValue.of(false),
          PropertyValue.of(0L),
          PropertyValue.of(1L),
          PropertyValue.of(-1L),
          PropertyValue.of(Long.MIN_VALUE),
          PropertyValue.of(Long.MAX_VALUE),
          PropertyValue.of(TableLimits.MIN_DATE_TIME),
          PropertyValue.of(TableLimits.MAX_DATE_TIME),
          PropertyValue.of(Instant.EPOCH.plusNanos(100)),
          PropertyValue.of(Instant.parse("2020-01-01T00:00:00Z")));

  @DatabaseTest({
    Kind.H2,
    Kind.POSTGRESQL,
    Kind.POSTGRESQL_PROPERTY_INDEX,
    Kind.POSTGRESQL_SCALAR_STORE
  })
  void eachEqualityFindsExactlyTheEntitiesHoldingTheValue(TableService service) {
    service.createTable("values");
    TableClient table = service.tableClient("values");
    for (int i = 0; i < VALUES.size(); i++) {
      // V at varying positions, after Pad; Other holds the next value, so a value is also found
      // elsewhere
      table.insert(
          TableEntity.builder("p", String.format("%03d", i))
              .put("Pad" + i % 3, i)
              .put("V", VALUES.get(i))
              .put("Other", VALUES.get((i + 1) % VALUES.size()))
              .build());
    }

    for (int i = 0; i < VALUES.size(); i++) {
      String literal = literal(VALUES.get(i));
      assertThat(rowKeys(table, "V eq " + literal))
          .as("V eq %s", literal)
          .containsExactly(String.format("%03d", i));
      assertThat(
              rowKeys(
                  table,
                  "V eq "
                      + literal
                      + " and Other eq "
                      + literal(VALUES.get((i + 1) % VALUES.size()))
                      + " and V eq "
                      + literal))
          .as("V eq %s twice, with Other", literal)
          .containsExactly(String.format("%03d", i));
    }
  }

  @DatabaseTest({
    Kind.H2,
    Kind.POSTGRESQL,
    Kind.POSTGRESQL_PROPERTY_INDEX,
    Kind.POSTGRESQL_SCALAR_STORE
  })
  void equalitiesThatCannotAllHoldFindNothing(TableService service) {
    service.createTable("values");
    TableClient table = service.tableClient("values");
    table.insert(TableEntity.builder("p", "1").put("S", "a").put("L", 5L).put("M", 7L).build());
    table.insert(TableEntity.builder("p", "2").put("S", "b").put("L", 7L).build());

    assertThat(rowKeys(table, "S eq 'a' and S eq 'b'")).isEmpty();
    assertThat(rowKeys(table, "L eq 5L and L eq 7L")).isEmpty();
    assertThat(rowKeys(table, "S eq 'a' and L eq 7L")).isEmpty();
    assertThat(rowKeys(table, "S eq 'a' and (L eq 7L or M eq 7L)")).containsExactly("1");
    assertThat(rowKeys(table, "L eq 5 and S eq 'a'"))
        .as("an Int32 literal matches Int64")
        .containsExactly("1");
  }

  private static List<String> rowKeys(TableClient table, String filter) {
    List<String> keys = new ArrayList<>();
    EntityQuery query = EntityQuery.filter(filter);
    while (true) {
      EntityPage page = table.query(query);
      page.entities().forEach(e -> keys.add(e.rowKey()));
      if (page.next().isEmpty()) {
        return keys;
      }
      query = query.withContinuation(page.next().get());
    }
  }

  private static String literal(PropertyValue value) {
    return switch (value) {
      case PropertyValue.StringValue s -> "'" + s.value().replace("'", "''") + "'";
      case PropertyValue.GuidValue g -> "guid'" + g.value() + "'";
      case PropertyValue.BinaryValue b -> "X'" + HexFormat.of().formatHex(b.value()) + "'";
      case PropertyValue.BooleanValue b -> b.value().toString();
      case PropertyValue.Int64Value l -> l.value() + "L";
      case PropertyValue.DateTimeValue t -> "datetime'" + DATE_TIME.format(t.value()) + "'";
      default -> throw new IllegalArgumentException("no literal for " + value);
    };
  }
}
