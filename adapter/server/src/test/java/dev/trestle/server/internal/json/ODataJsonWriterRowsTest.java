package dev.trestle.server.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.json.MetadataLevel;
import dev.trestle.json.internal.EntityRowPage;
import dev.trestle.json.internal.RowQueries;
import dev.trestle.json.internal.RowReads;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.RandomEntities;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A query page written from the store's undecoded rows is byte for byte the page written from the
 * decoded entities, for random entities of every type, at every metadata level, with and without
 * {@code $select}.
 */
class ODataJsonWriterRowsTest {
  private static final List<List<String>> SELECTS =
      Arrays.asList(
          null,
          List.of("Str", "Int", "Long", "Dbl", "Bool", "When", "Id", "Bin", "Mixed"),
          List.of("Rare", "Missing", "Timestamp", "_u\u00e9"),
          List.of("RowKey", "When", "Bin", "Str", "Nope"),
          List.of("PartitionKey"));

  @DatabaseTest
  void rowsWriteTheSameBytesAsDecodedEntities(TableService service) {
    Random random = new Random(20261125);
    service.createTable("rows");
    TableClient table = service.tableClient("rows");
    for (TableEntity entity : RandomEntities.generate(random, 400)) {
      table.insert(shuffled(entity, random));
    }
    // strings the stored JSON escapes, or the dialect encodes, next to plain ones
    table.insert(
        TableEntity.builder("p0", "escapes")
            .put("Str", "quote\" back\\slash\nline\ttab")
            .put("Mixed", "\u0000\u0001\u001f")
            .put("Rare", "\ud800 \ue000\uffff")
            .put("_u\u00e9", "plain")
            .build());
    assertThat(table).isInstanceOf(RowQueries.class);
    for (List<String> select : SELECTS) {
      for (Integer top : Arrays.asList(null, 7)) {
        EntityQuery query = new EntityQuery(null, select, top, null);
        EntityPage entities = table.query(query);
        EntityRowPage rows = ((RowQueries) table).queryRows(query);
        assertThat(rows.next()).isEqualTo(entities.next());
        assertThat(rows.entities()).hasSameSizeAs(entities.entities());
        for (MetadataLevel level : MetadataLevel.values()) {
          ODataJsonWriter writer = new ODataJsonWriter(level, "http://h/acct", "acct");
          String streamed =
              new String(
                  writer.page("rows", rows.entities(), select).toByteArray(),
                  StandardCharsets.UTF_8);
          String decoded =
              new String(
                  writer.entities("rows", entities.entities(), select), StandardCharsets.UTF_8);
          assertThat(streamed).as("%s, $select=%s, $top=%s", level, select, top).isEqualTo(decoded);
        }
      }
    }
  }

  @DatabaseTest
  void pointReadRowsWriteTheSameBytesAsDecodedEntities(TableService service) {
    Random random = new Random(20261127);
    service.createTable("points");
    TableClient table = service.tableClient("points");
    List<TableEntity> inserted = new ArrayList<>(RandomEntities.generate(random, 150));
    inserted.add(
        TableEntity.builder("p0", "escapes")
            .put("Str", "quote\" back\\slash\nline\ttab")
            .put("Mixed", "\u0000\u0001\u001f")
            .put("Rare", "\ud800 \ue000\uffff \ud83d\ude00 \u00e9\u0800\ud7ff")
            .put("Bin", new byte[] {0, -1, 62, 63})
            .put("_u\u00e9", "plain")
            .build());
    for (TableEntity entity : inserted) {
      table.insert(entity);
    }
    assertThat(table).isInstanceOf(RowReads.class);
    for (TableEntity entity : inserted) {
      for (List<String> select : SELECTS) {
        for (MetadataLevel level : MetadataLevel.values()) {
          ODataJsonWriter writer = new ODataJsonWriter(level, "http://h/acct", "acct");
          byte[] streamed =
              writer.entity(
                  "points",
                  ((RowReads) table).getRow(entity.partitionKey(), entity.rowKey(), select),
                  select);
          byte[] decoded =
              writer.entity(
                  "points", table.get(entity.partitionKey(), entity.rowKey(), select), select);
          assertThat(streamed)
              .as("%s/%s, %s, $select=%s", entity.partitionKey(), entity.rowKey(), level, select)
              .isEqualTo(decoded);
        }
      }
    }
  }

  /** The entity with its properties in a random order, which the store must give back. */
  private static TableEntity shuffled(TableEntity entity, Random random) {
    List<Map.Entry<String, PropertyValue>> properties =
        new ArrayList<>(entity.properties().entrySet());
    Collections.shuffle(properties, random);
    TableEntity.Builder builder = TableEntity.builder(entity.partitionKey(), entity.rowKey());
    properties.forEach(p -> builder.put(p.getKey(), p.getValue()));
    return builder.build();
  }
}
