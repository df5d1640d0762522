package dev.trestle.server.internal.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import dev.trestle.TableEntity;
import dev.trestle.TableInfo;
import dev.trestle.json.MetadataLevel;
import dev.trestle.json.internal.EntityRow;
import dev.trestle.json.internal.EntityRowJson;
import dev.trestle.server.internal.http.ChunkedBytes;
import dev.trestle.server.internal.http.PercentCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes entities and tables as OData JSON at a metadata level, in Azure's key order:
 * odata.metadata, odata.type, odata.id, odata.etag, odata.editLink, then the entity itself ({@link
 * EntityRowJson#writeFields}). A query page is written from its rows, which the store hands over
 * undecoded: each row's properties go from their stored JSON to the response's.
 */
public final class ODataJsonWriter {
  // one shared buffer pool: requests also run on virtual threads, where a per-thread pool starts
  // empty
  private static final JsonFactory JSON =
      JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build();

  private final MetadataLevel level;
  private final String baseUrl;
  private final String account;

  public ODataJsonWriter(MetadataLevel level, String baseUrl, String account) {
    this.level = level;
    this.baseUrl = baseUrl;
    this.account = account;
  }

  /** One entity as the body of a GET or an insert; {@code select} null for all properties. */
  public byte[] entity(String table, TableEntity entity, List<String> select) {
    return entity(table, EntityRow.of(entity), select);
  }

  /** One entity as the body of a GET, from its row; {@code select} null for all properties. */
  public byte[] entity(String table, EntityRow entity, List<String> select) {
    return write(
        gen -> {
          gen.writeStartObject();
          if (level != MetadataLevel.NONE) {
            gen.writeStringField(
                "odata.metadata",
                baseUrl + "/$metadata#" + table + "/@Element" + selectSuffix(select));
          }
          entityFields(gen, table, entity, selected(select));
          gen.writeEndObject();
        });
  }

  /** A page of a query. */
  public byte[] entities(String table, List<TableEntity> entities, List<String> select) {
    return page(table, entities.stream().map(EntityRow::of).toList(), select).toByteArray();
  }

  /**
   * A page of a query in chunks, as sent: a page of large entities is held once, not copied whole.
   */
  public ChunkedBytes page(String table, List<? extends EntityRow> entities, List<String> select) {
    Set<String> selected = selected(select);
    return write(
        new ChunkedBytes(),
        gen -> {
          gen.writeStartObject();
          if (level != MetadataLevel.NONE) {
            gen.writeStringField(
                "odata.metadata", baseUrl + "/$metadata#" + table + selectSuffix(select));
          }
          gen.writeArrayFieldStart("value");
          for (EntityRow entity : entities) {
            gen.writeStartObject();
            entityFields(gen, table, entity, selected);
            gen.writeEndObject();
          }
          gen.writeEndArray();
          gen.writeEndObject();
        });
  }

  public byte[] table(String name) {
    return write(
        gen -> {
          gen.writeStartObject();
          if (level != MetadataLevel.NONE) {
            gen.writeStringField("odata.metadata", baseUrl + "/$metadata#Tables/@Element");
          }
          tableFields(gen, name);
          gen.writeEndObject();
        });
  }

  public byte[] tables(List<TableInfo> tables) {
    return write(
        gen -> {
          gen.writeStartObject();
          if (level != MetadataLevel.NONE) {
            gen.writeStringField("odata.metadata", baseUrl + "/$metadata#Tables");
          }
          gen.writeArrayFieldStart("value");
          for (TableInfo table : tables) {
            gen.writeStartObject();
            tableFields(gen, table.name());
            gen.writeEndObject();
          }
          gen.writeEndArray();
          gen.writeEndObject();
        });
  }

  private void tableFields(JsonGenerator gen, String name) throws IOException {
    if (level == MetadataLevel.FULL) {
      String literal = "Tables('" + keyLiteral(name) + "')";
      gen.writeStringField("odata.type", account + ".Tables");
      gen.writeStringField("odata.id", baseUrl + "/" + literal);
      gen.writeStringField("odata.editLink", literal);
    }
    gen.writeStringField("TableName", name);
  }

  /** What Azure appends to odata.metadata for a projection (recorded): {@code &$select=a,b}. */
  private static String selectSuffix(List<String> select) {
    return select == null ? "" : "&$select=" + String.join(",", select);
  }

  private static Set<String> selected(List<String> select) {
    return select == null ? null : new LinkedHashSet<>(select);
  }

  private void entityFields(JsonGenerator gen, String table, EntityRow entity, Set<String> selected)
      throws IOException {
    if (level == MetadataLevel.FULL) {
      String link =
          table
              + "(PartitionKey='"
              + keyLiteral(entity.partitionKey())
              + "',RowKey='"
              + keyLiteral(entity.rowKey())
              + "')";
      gen.writeStringField("odata.type", account + "." + table);
      gen.writeStringField("odata.id", baseUrl + "/" + link);
      writeEtag(gen, entity);
      gen.writeStringField("odata.editLink", link);
    } else if (level == MetadataLevel.MINIMAL) {
      writeEtag(gen, entity);
    }
    EntityRowJson.writeFields(gen, entity, level, selected);
  }

  private static void writeEtag(JsonGenerator gen, EntityRow entity) throws IOException {
    String etag = entity.etag();
    if (etag != null) {
      gen.writeStringField("odata.etag", etag);
    }
  }

  /**
   * A key as it appears inside an OData literal in a URL: quotes doubled, the rest percent-encoded.
   */
  public static String keyLiteral(String key) {
    return PercentCodec.encode(key.replace("'", "''")).replace("%27", "'");
  }

  /** The entity's URL, as in Location and DataServiceId. */
  public static String entityUrl(String baseUrl, String table, String partitionKey, String rowKey) {
    return baseUrl
        + "/"
        + table
        + "(PartitionKey='"
        + keyLiteral(partitionKey)
        + "',RowKey='"
        + keyLiteral(rowKey)
        + "')";
  }

  private interface JsonBody {
    void write(JsonGenerator gen) throws IOException;
  }

  private static byte[] write(JsonBody body) {
    return write(new ByteArrayOutputStream(256), body).toByteArray();
  }

  private static <T extends java.io.OutputStream> T write(T out, JsonBody body) {
    try (JsonGenerator gen = JSON.createGenerator(out)) {
      body.write(gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
