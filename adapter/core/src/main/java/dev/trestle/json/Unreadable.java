package dev.trestle.json;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * Why an entity's JSON could not be read. The service answers with its error codes ({@link
 * #toServiceError()}), an import names the problem without echoing values ({@link #lineMessage()}):
 * both texts live here.
 */
final class Unreadable extends RuntimeException {
  enum Reason {
    NOT_JSON,
    NOT_AN_OBJECT,
    ANNOTATION_NOT_STRING,
    NESTED_VALUE,
    DUPLICATE_PROPERTY,
    KEY_NOT_STRING,
    UNKNOWN_TYPE,
    INVALID_VALUE,
    OUT_OF_RANGE
  }

  private final Reason reason;
  private final String property;
  private final String detail;
  private final TableException serviceError;

  private Unreadable(Reason reason, String property, String detail, TableException serviceError) {
    super(reason.name(), null, false, false);
    this.reason = reason;
    this.property = property;
    this.detail = detail;
    this.serviceError = serviceError;
  }

  static Unreadable of(Reason reason, String property, String detail) {
    return new Unreadable(reason, property, detail, null);
  }

  /**
   * A failure the service reports with a message of its own (an unknown type, a date out of range).
   */
  static Unreadable of(Reason reason, String property, String detail, TableException serviceError) {
    return new Unreadable(reason, property, detail, serviceError);
  }

  TableException toServiceError() {
    if (serviceError != null) {
      return serviceError;
    }
    return switch (reason) {
      case NOT_JSON, NOT_AN_OBJECT -> EntityJson.notAJsonObject();
      case ANNOTATION_NOT_STRING ->
          invalidInput("The type annotation of property '" + property + "' is not a string.");
      case NESTED_VALUE ->
          invalidInput("The value of property '" + property + "' is not a primitive value.");
      case DUPLICATE_PROPERTY ->
          new TableException(
              TableErrorCode.DUPLICATE_PROPERTIES_SPECIFIED,
              "A property is specified more than one time.");
      case KEY_NOT_STRING ->
          new TableException(
              TableErrorCode.PRIMARY_KEY_PROPERTY_IS_INVALID_TYPE,
              "The value of property '" + property + "' must be a string.");
      // Azure's message is the first sentence alone; clients match on it, the second says what was
      // wrong.
      case UNKNOWN_TYPE, INVALID_VALUE, OUT_OF_RANGE ->
          invalidInput(
              "An error occurred while processing this request. The value of property '"
                  + property
                  + "' is not a valid "
                  + detail
                  + ".");
    };
  }

  String lineMessage() {
    return switch (reason) {
      case NOT_JSON -> "not JSON (" + detail + ")";
      case NOT_AN_OBJECT -> "not a JSON object";
      case ANNOTATION_NOT_STRING ->
          "property '" + property + "' has a type annotation that is not a string";
      case NESTED_VALUE ->
          "property '"
              + property
              + "' is a JSON "
              + detail
              + "; the Table model has no nested values";
      case DUPLICATE_PROPERTY -> "property '" + property + "' is specified more than once";
      case KEY_NOT_STRING -> property + " is missing or not a string";
      case UNKNOWN_TYPE -> "property '" + property + "' has unknown type '" + detail + "'";
      case INVALID_VALUE -> "property '" + property + "' is not a valid " + detail;
      case OUT_OF_RANGE ->
          "property '"
              + property
              + "' is outside the range of "
              + detail
              + " (1601-01-01 to 9999-12-31)";
    };
  }

  private static TableException invalidInput(String message) {
    return new TableException(TableErrorCode.INVALID_INPUT, message);
  }
}
