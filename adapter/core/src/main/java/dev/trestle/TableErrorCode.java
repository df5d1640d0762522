package dev.trestle;

/**
 * The Table service error codes Trestle produces, each with the HTTP status the service answers
 * with. {@link #code()} is the exact string clients see in {@code x-ms-error-code} and the JSON
 * error body.
 */
public enum TableErrorCode {
  // 400
  INVALID_INPUT(400, "InvalidInput"),
  OUT_OF_RANGE_INPUT(400, "OutOfRangeInput"),
  INVALID_RESOURCE_NAME(400, "InvalidResourceName"),
  KEY_VALUE_TOO_LARGE(400, "KeyValueTooLarge"),
  PROPERTY_VALUE_TOO_LARGE(400, "PropertyValueTooLarge"),
  ENTITY_TOO_LARGE(400, "EntityTooLarge"),
  TOO_MANY_PROPERTIES(400, "TooManyProperties"),
  PROPERTY_NAME_INVALID(400, "PropertyNameInvalid"),
  PROPERTY_NAME_TOO_LONG(400, "PropertyNameTooLong"),
  DUPLICATE_PROPERTIES_SPECIFIED(400, "DuplicatePropertiesSpecified"),
  PROPERTIES_NEED_VALUE(400, "PropertiesNeedValue"),
  INVALID_DUPLICATE_ROW(400, "InvalidDuplicateRow"),
  COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS(400, "CommandsInBatchActOnDifferentPartitions"),
  PRIMARY_KEY_PROPERTY_IS_INVALID_TYPE(400, "PrimaryKeyPropertyIsInvalidType"),
  INVALID_VALUE_TYPE(400, "InvalidValueType"),
  INVALID_QUERY_PARAMETER_VALUE(400, "InvalidQueryParameterValue"),
  OUT_OF_RANGE_QUERY_PARAMETER_VALUE(400, "OutOfRangeQueryParameterValue"),
  INVALID_HEADER_VALUE(400, "InvalidHeaderValue"),
  MISSING_REQUIRED_HEADER(400, "MissingRequiredHeader"),
  INVALID_XML_DOCUMENT(400, "InvalidXmlDocument"),
  INVALID_XML_NODE_VALUE(400, "InvalidXmlNodeValue"),
  INVALID_AUTHENTICATION_INFO(400, "InvalidAuthenticationInfo"),
  X_METHOD_INCORRECT_COUNT(400, "XMethodIncorrectCount"),
  X_METHOD_INCORRECT_VALUE(400, "XMethodIncorrectValue"),
  X_METHOD_NOT_USING_POST(400, "XMethodNotUsingPost"),
  // 401 / 403
  NO_AUTHENTICATION_INFORMATION(401, "NoAuthenticationInformation"),
  /** A Bearer token that is malformed, expired, for another audience or wrongly signed. */
  INVALID_BEARER_TOKEN(401, "InvalidAuthenticationInfo"),
  AUTHENTICATION_FAILED(403, "AuthenticationFailed"),
  AUTHORIZATION_FAILURE(403, "AuthorizationFailure"),
  AUTHORIZATION_PERMISSION_MISMATCH(403, "AuthorizationPermissionMismatch"),
  AUTHORIZATION_SERVICE_MISMATCH(403, "AuthorizationServiceMismatch"),
  AUTHORIZATION_RESOURCE_TYPE_MISMATCH(403, "AuthorizationResourceTypeMismatch"),
  AUTHORIZATION_SOURCE_IP_MISMATCH(403, "AuthorizationSourceIPMismatch"),
  AUTHORIZATION_PROTOCOL_MISMATCH(403, "AuthorizationProtocolMismatch"),
  CORS_PREFLIGHT_FAILURE(403, "CorsPreflightFailure"),
  // 404
  TABLE_NOT_FOUND(404, "TableNotFound"),
  RESOURCE_NOT_FOUND(404, "ResourceNotFound"),
  // 405
  METHOD_NOT_ALLOWED(405, "MethodNotAllowed"),
  // 409
  TABLE_ALREADY_EXISTS(409, "TableAlreadyExists"),
  TABLE_BEING_DELETED(409, "TableBeingDeleted"),
  ENTITY_ALREADY_EXISTS(409, "EntityAlreadyExists"),
  // 412
  UPDATE_CONDITION_NOT_SATISFIED(412, "UpdateConditionNotSatisfied"),
  // 413 / 415
  REQUEST_BODY_TOO_LARGE(413, "RequestBodyTooLarge"),
  ATOM_FORMAT_NOT_SUPPORTED(415, "AtomFormatNotSupported"),
  JSON_FORMAT_NOT_SUPPORTED(415, "JsonFormatNotSupported"),
  // 5xx
  INTERNAL_ERROR(500, "InternalError"),
  OPERATION_TIMED_OUT(500, "OperationTimedOut"),
  NOT_IMPLEMENTED(501, "NotImplemented"),
  SERVER_BUSY(503, "ServerBusy");

  private final int status;
  private final String code;

  TableErrorCode(int status, String code) {
    this.status = status;
    this.code = code;
  }

  /** The HTTP status the service answers with. */
  public int status() {
    return status;
  }

  /** The error code string, e.g. {@code EntityAlreadyExists}. */
  public String code() {
    return code;
  }
}
