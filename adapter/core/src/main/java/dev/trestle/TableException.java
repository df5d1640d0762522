package dev.trestle;

import java.util.Objects;

/** The one exception of the Table API: a failed operation with the Azure error code it maps to. */
public class TableException extends RuntimeException {
  private final TableErrorCode errorCode;

  public TableException(TableErrorCode errorCode, String message) {
    super(message);
    this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
  }

  public TableException(TableErrorCode errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
  }

  public TableErrorCode errorCode() {
    return errorCode;
  }

  /** The HTTP status the service answers with for this error. */
  public int status() {
    return errorCode.status();
  }
}
