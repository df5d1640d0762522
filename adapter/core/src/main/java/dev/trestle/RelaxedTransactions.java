package dev.trestle;

/**
 * The bounds of a relaxed transaction ({@link ServiceExtensions#submitTransaction}), which the
 * operator enables with {@link TableServiceBuilder#relaxedTransactions(RelaxedTransactions)}: one
 * database transaction may then hold more than Azure's 100 operations and 4 MiB, and span
 * partitions and tables. The bounds keep one request from holding a connection and the server's
 * memory without end.
 *
 * @param maxOperations the most operations one transaction may hold, at least 1
 * @param maxBytes the most bytes its entities may measure together (as Azure measures an entity),
 *     at least 1
 */
public record RelaxedTransactions(int maxOperations, long maxBytes) {
  /**
   * 10,000 operations and 32 MiB: a few seconds of database work, well inside a heap of 512 MiB.
   */
  public static final RelaxedTransactions DEFAULT = new RelaxedTransactions(10_000, 32L << 20);

  /**
   * The most bytes the body of a relaxed {@code $batch} may hold: twice {@link #maxBytes()} (the
   * JSON and multipart framing around the entities), and never less than a standard batch's 4 MiB.
   */
  public int maxRequestBytes() {
    return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(4L << 20, 2 * maxBytes));
  }
}
