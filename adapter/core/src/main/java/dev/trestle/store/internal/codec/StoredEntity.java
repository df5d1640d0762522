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
 * asked for, and otherwise written straight to a response ({@link EntityRow}).
 */
public record StoredEntity(
    String partitionKey, String rowKey, long ticks, String document, PropertyCodec codec)
    implements EntityRow {

  /** The entity with the properties named in {@code select} (all when null). */
  public TableEntity toEntity(Collection<String> select) {
    return new StoredRow(partitionKey, rowKey, ticks, codec.decode(document, select)).toEntity();
  }

  @Override
  public String etag() {
    return ETags.of(ticks);
  }

  @Override
  public String timestamp() {
    return Ticks.format(ticks);
  }

  @Override
  public void properties(Set<String> selected, PropertySink sink) throws IOException {
    codec.transcode(document, selected, sink);
  }
}
