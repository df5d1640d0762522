package dev.trestle.cli.transfer;

/**
 * How far a table's transfer has committed: the entities committed, the keys of the last one (a key
 * ordered source resumes after them), and the sink's own offset (the bytes of an NDJSON file).
 */
public record Position(long entities, String partitionKey, String rowKey, long sinkOffset) {
  public static final Position START = new Position(0, null, null, 0);

  public boolean atStart() {
    return entities == 0;
  }

  /** The OData filter for the entities after this position in key order; null at the start. */
  public String afterFilter() {
    if (partitionKey == null) {
      return null;
    }
    String pk = quote(partitionKey);
    return "(PartitionKey eq "
        + pk
        + " and RowKey gt "
        + quote(rowKey)
        + ") or PartitionKey gt "
        + pk;
  }

  private static String quote(String value) {
    return "'" + value.replace("'", "''") + "'";
  }
}
