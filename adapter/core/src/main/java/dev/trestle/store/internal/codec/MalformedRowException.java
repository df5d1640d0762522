package dev.trestle.store.internal.codec;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * A stored row Trestle cannot read: written by SQL, not by Trestle, with properties of another
 * shape, an unknown type tag, a value its type cannot hold, or a version outside the DateTime
 * range. The codec throws it with the reason; {@link #of} turns it into the error callers see: a
 * server-side data problem, so {@code 500 InternalError} as Azure answers for its own failures,
 * naming the row so an operator can fix or delete it (a retry cannot help, and the message says
 * so).
 */
public final class MalformedRowException extends TableException {
  MalformedRowException(String reason) {
    super(TableErrorCode.INTERNAL_ERROR, reason);
  }

  MalformedRowException(String reason, Throwable cause) {
    super(TableErrorCode.INTERNAL_ERROR, reason, cause);
  }

  /** The error naming the row: table, PartitionKey, RowKey, and what is wrong with it. */
  public static MalformedRowException of(
      String table, String partitionKey, String rowKey, MalformedRowException reason) {
    if (reason.getMessage().startsWith(PREFIX)) {
      return reason; // already named
    }
    return new MalformedRowException(
        named(PREFIX, table, partitionKey, rowKey, reason.getMessage(), ""), reason.getCause());
  }

  /** As {@link #of}, for a stored row a raw copy was handed (its source's row). */
  static MalformedRowException copied(
      String table, String partitionKey, String rowKey, String reason) {
    return new MalformedRowException(
        named(
            "The stored entity copied into ",
            table,
            partitionKey,
            rowKey,
            reason,
            " in the source database"));
  }

  private static String named(
      String intro, String table, String partitionKey, String rowKey, String reason, String where) {
    return intro
        + "table '"
        + table
        + "', PartitionKey '"
        + partitionKey
        + "', RowKey '"
        + rowKey
        + "' is malformed: "
        + reason
        + ". It was not written by Trestle; fix or delete the row in SQL"
        + where
        + " (see sql/README.md).";
  }

  private static final String PREFIX = "The stored entity in ";
}
