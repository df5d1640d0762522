package dev.trestle;

/**
 * An entity as one kind of database stores it: its keys (decoded, as the caller knows them), its
 * version ({@code ticks}, opaque: its Timestamp and ETag follow from it) and its properties still
 * as the stored {@code document}. A copy between two databases of the same {@link
 * TableService#storedForm() stored form} passes it through ({@link TableService#readRawEntities},
 * {@link BulkWriter#addRaw}) instead of decoding and encoding every property.
 */
public record RawEntity(String partitionKey, String rowKey, long ticks, String document) {

  /** Only the keys, for checkpoints and messages. */
  public TableEntity keys() {
    return TableEntity.builder(partitionKey, rowKey).build();
  }
}
