package dev.trestle.store.internal.codec;

import dev.trestle.TableEntity;
import dev.trestle.json.internal.EntityRow;
import dev.trestle.json.internal.PropertySink;
import java.io.IOException;
import java.util.Collection;
import java.util.Set;

/**
 * One entity as a query read it: its keys as the caller knows them (decoded), its version, and its
 * properties still as the stored document, decoded into a {@link TableEntity} only when one is
 * asked for, and otherwise written straight to a response ({@link EntityRow}). A row that SQL wrote
 * in a form Trestle cannot read fails there, as {@link MalformedRowException#of} says, naming it.
 */
public record StoredEntity(
    String partitionKey,
    String rowKey,
    long ticks,
    String document,
    PropertyCodec codec,
    String table)
    implements EntityRow {

  /** The entity with the properties named in {@code select} (all when null). */
  public TableEntity toEntity(Collection<String> select) {
    try {
      Ticks.checkVersion(ticks);
      return new StoredRow(partitionKey, rowKey, ticks, codec.decode(document, select)).toEntity();
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
  }

  @Override
  public String etag() {
    return ETags.of(ticks);
  }

  @Override
  public String timestamp() {
    try {
      Ticks.checkVersion(ticks);
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
    return Ticks.format(ticks);
  }

  @Override
  public void properties(Set<String> selected, PropertySink sink) throws IOException {
    try {
      codec.transcode(document, selected, sink);
    } catch (MalformedRowException e) {
      throw MalformedRowException.of(table, partitionKey, rowKey, e);
    }
  }
}
