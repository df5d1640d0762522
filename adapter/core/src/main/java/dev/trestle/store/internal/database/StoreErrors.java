package dev.trestle.store.internal.database;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * The Table errors the store raises when the stored state refuses a request, each text written
 * once.
 */
public final class StoreErrors {
  private StoreErrors() {}

  public static TableException tableNotFound() {
    return new TableException(
        TableErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
  }

  public static TableException tableAlreadyExists(Throwable cause) {
    return new TableException(
        TableErrorCode.TABLE_ALREADY_EXISTS, "The table specified already exists.", cause);
  }

  public static TableException resourceNotFound() {
    return new TableException(
        TableErrorCode.RESOURCE_NOT_FOUND, "The specified resource does not exist.");
  }

  /** What every extension answers when the service's extensions are switched off. */
  public static TableException relaxedTransactionsOff() {
    return new TableException(
        TableErrorCode.NOT_IMPLEMENTED,
        "Relaxed transactions are switched off on this server (trestle serve --relaxed-transactions"
            + " on, or TableServiceBuilder.relaxedTransactions(true), enables them).");
  }

  public static TableException duplicateRow() {
    return new TableException(
        TableErrorCode.INVALID_DUPLICATE_ROW,
        "The batch request contains multiple changes with same row key. An entity can appear only"
            + " once in a batch request.");
  }

  public static TableException extensionsOff() {
    return new TableException(
        TableErrorCode.NOT_IMPLEMENTED,
        "Trestle extensions are switched off on this server (trestle serve --extensions off, or"
            + " TableServiceBuilder.extensions(false)).");
  }

  /** A write retried as often as it may, each time refused by concurrent writes' locks. */
  public static TableException keptConflicting(Throwable cause) {
    return new TableException(
        TableErrorCode.SERVER_BUSY,
        "The server is busy: the write kept conflicting with concurrent writes. Please retry.",
        cause);
  }

  public static TableException entityAlreadyExists() {
    return new TableException(
        TableErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists.");
  }

  public static TableException updateConditionNotSatisfied() {
    return new TableException(
        TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
        "The update condition specified in the request was not satisfied.");
  }
}
