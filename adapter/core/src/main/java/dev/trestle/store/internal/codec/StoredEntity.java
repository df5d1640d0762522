package dev.trestle.store.internal.codec;

import dev.trestle.TableEntity;
import dev.trestle.json.internal.EntityRow;
import dev.trestle.json.internal.PropertySink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Set;

/**
 * One entity as a query read it: its keys as the caller knows them (decoded), its version, and its
 * properties still as the stored document, decoded into a {@link TableEntity} only when one is
 * asked for, and otherwise written straight to a response ({@link EntityRow}). The document is its
 * text, or the UTF-8 bytes the database sent (PostgreSQL), which a response copies without making a
 * String of them. A row that SQL wrote in a form Trestle cannot read fails there, as {@link
 * MalformedRowException#of} says, naming it.
 */
public final class StoredEntity implements EntityRow {
  private final String partitionKey;
  private final String rowKey;
  private final long ticks;
  private String document;
  private final byte[] utf8;
  private final PropertyCodec codec;
  private final String table;
  // the version's Timestamp text, which the ETag holds too: a response row formats it once
  private String formatted;

  public StoredEntity(
      String partitionKey,
      String rowKey,
      long ticks,
      String document,
      PropertyCodec codec,
      String table) {
    this(partitionKey, rowKey, ticks, document, null, codec, table);
  }

  /** A row whose document is the UTF-8 bytes of its text, which the entity keeps as they are. */
  public static StoredEntity ofUtf8(
      String partitionKey,
      String rowKey,
      long ticks,
      byte[] utf8,
      PropertyCodec codec,
      String table) {
    // jsonb's binary wire form is its text after a version byte 1, which a URL enabling binary
    // transfer for jsonb would hand over; JSON text never starts with that byte
    byte[] text = utf8.length > 0 && utf8[0] == 1 ? Arrays.copyOfRange(utf8, 1, utf8.length) : utf8;
    return new StoredEntity(partitionKey, rowKey, ticks, null, text, codec, table);
  }

  private StoredEntity(
      String partitionKey,
      String rowKey,
      long ticks,
      String document,
      byte[] utf8,
      PropertyCodec codec,
      String table) {
    this.partitionKey = partitionKey;
    this.rowKey = rowKey;
    this.ticks = ticks;
    this.document = document;
    this.utf8 = utf8;
    this.codec = codec;
    this.table = table;
  }

  @Override
  public String partitionKey() {
    return partitionKey;
  }

  @Override
  public String rowKey() {
    return rowKey;
  }

  public long ticks() {
    return ticks;
  }

  /** The stored document's text. */
  public String document() {
    if (document == null && utf8 != null) {
      document = new String(utf8, StandardCharsets.UTF_8);
    }
    return document;
  }

  /** The length of {@link #document()} in UTF-16 units, without decoding the bytes. */
  public int documentLength() {
    return document != null || utf8 == null ? document().length() : Utf8.charCount(utf8);
  }

  /** The entity with the properties named in {@code select} (all when null). */
  public TableEntity toEntity(Collection<String> select) {
    try {
      Ticks.checkVersion(ticks);
      TableEntity.Builder entity = TableEntity.builder(partitionKey, rowKey);
      codec.decode(document(), select, entity::put);
      return StoredRow.versioned(entity, ticks).build();
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
  }

  @Override
  public String etag() {
    return ETags.ofFormatted(formatted());
  }

  @Override
  public String timestamp() {
    try {
      Ticks.checkVersion(ticks);
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
    return formatted();
  }

  private String formatted() {
    String text = formatted;
    if (text == null) {
      text = Ticks.format(ticks);
      formatted = text;
    }
    return text;
  }

  @Override
  public void properties(Set<String> selected, PropertySink sink) throws IOException {
    try {
      if (document == null && utf8 != null) {
        codec.transcode(utf8, selected, sink);
      } else {
        codec.transcode(document, selected, sink);
      }
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
  }
}
