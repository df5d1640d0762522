package dev.trestle;

import java.util.Objects;

/** The one exception of the Table API: a failed operation with the Azure error code it maps to. */
public class TableException extends RuntimeException {
  private final TableErrorCode errorCode;

  /**
   * A failure with its code (never null) and a message for people, which clients see in the error
   * body.
   */
  public TableException(TableErrorCode errorCode, String message) {
    super(message);
    this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
  }

  /** As {@link #TableException(TableErrorCode, String)}, keeping the underlying failure. */
  public TableException(TableErrorCode errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
  }

  /** The Azure error code: what a caller switches on (the message may change between versions). */
  public TableErrorCode errorCode() {
    return errorCode;
  }

  /** The HTTP status the service answers with for this error. */
  public int status() {
    return errorCode.status();
  }
}
