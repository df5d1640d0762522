package dev.trestle;

/**
 * An entity-group transaction was rolled back because one of its operations failed. Carries that
 * operation's zero-based index; the error code is the failing operation's own.
 */
public final class TransactionFailedException extends TableException {
  private final int failedIndex;

  /** Wraps the failing operation's error; the message gets the Azure {@code index:} prefix. */
  public TransactionFailedException(int failedIndex, TableException cause) {
    super(cause.errorCode(), failedIndex + ":" + cause.getMessage(), cause);
    this.failedIndex = failedIndex;
  }

  /** The zero-based index of the operation that failed. */
  public int failedIndex() {
    return failedIndex;
  }

  /** The failing operation's own error, without the index prefix. */
  public TableException operationError() {
    return (TableException) getCause();
  }
}
