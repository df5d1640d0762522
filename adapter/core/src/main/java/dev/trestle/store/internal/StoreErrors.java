package dev.trestle.store.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/** The Table errors the store raises when the stored state refuses a request, each text written once. */
final class StoreErrors {
  private StoreErrors() {}

  static TableException tableNotFound() {
    return new TableException(TableErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
  }

  static TableException tableAlreadyExists(Throwable cause) {
    return new TableException(TableErrorCode.TABLE_ALREADY_EXISTS, "The table specified already exists.", cause);
  }

  static TableException resourceNotFound() {
    return new TableException(TableErrorCode.RESOURCE_NOT_FOUND, "The specified resource does not exist.");
  }

  static TableException entityAlreadyExists() {
    return new TableException(TableErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists.");
  }

  static TableException updateConditionNotSatisfied() {
    return new TableException(TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
        "The update condition specified in the request was not satisfied.");
  }
}
