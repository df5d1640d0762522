package dev.trestle;

/**
 * The Table service error codes Trestle produces, each with the HTTP status the service answers
 * with. {@link #code()} is the exact string clients see in {@code x-ms-error-code} and the JSON
 * error body.
 */
public enum TableErrorCode {
  // 400
  /**
   * A request the service cannot accept: a malformed filter, key, property value, body or batch.
   */
  INVALID_INPUT(400, "InvalidInput"),
  /**
   * A name or value outside the service's limits, e.g. a table name of the wrong length or a
   * DateTime before 1601.
   */
  OUT_OF_RANGE_INPUT(400, "OutOfRangeInput"),
  /** A table name with characters the service does not allow. */
  INVALID_RESOURCE_NAME(400, "InvalidResourceName"),
  /** A PartitionKey or RowKey longer than 1 KiB. */
  KEY_VALUE_TOO_LARGE(400, "KeyValueTooLarge"),
  /** A String or Binary property value larger than 64 KiB. */
  PROPERTY_VALUE_TOO_LARGE(400, "PropertyValueTooLarge"),
  /** An entity larger than 1 MiB. */
  ENTITY_TOO_LARGE(400, "EntityTooLarge"),
  /** An entity with more than 252 user properties. */
  TOO_MANY_PROPERTIES(400, "TooManyProperties"),
  /** A property name the Table model does not allow. */
  PROPERTY_NAME_INVALID(400, "PropertyNameInvalid"),
  /** A property name longer than 255 characters. */
  PROPERTY_NAME_TOO_LONG(400, "PropertyNameTooLong"),
  /** A property given twice in one entity. */
  DUPLICATE_PROPERTIES_SPECIFIED(400, "DuplicatePropertiesSpecified"),
  /** A property, or a key, given without a value. */
  PROPERTIES_NEED_VALUE(400, "PropertiesNeedValue"),
  /** An entity-group transaction that names one entity more than once. */
  INVALID_DUPLICATE_ROW(400, "InvalidDuplicateRow"),
  /** An entity-group transaction spanning more than one PartitionKey. */
  COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS(400, "CommandsInBatchActOnDifferentPartitions"),
  /** A PartitionKey or RowKey given as another type than a string. */
  PRIMARY_KEY_PROPERTY_IS_INVALID_TYPE(400, "PrimaryKeyPropertyIsInvalidType"),
  /** A property value that does not match its declared EDM type. */
  INVALID_VALUE_TYPE(400, "InvalidValueType"),
  /** A query parameter of the request URI with a value the service does not accept. */
  INVALID_QUERY_PARAMETER_VALUE(400, "InvalidQueryParameterValue"),
  /** A query parameter outside its range, e.g. {@code $top} outside 1 to 1,000. */
  OUT_OF_RANGE_QUERY_PARAMETER_VALUE(400, "OutOfRangeQueryParameterValue"),
  /** A request header with a value the service does not accept. */
  INVALID_HEADER_VALUE(400, "InvalidHeaderValue"),
  /** A request without a header the operation requires. */
  MISSING_REQUIRED_HEADER(400, "MissingRequiredHeader"),
  /**
   * An XML body (access policies, service properties) that is not well-formed or not as specified.
   */
  INVALID_XML_DOCUMENT(400, "InvalidXmlDocument"),
  /** An XML body with an element whose value is not in the expected format. */
  INVALID_XML_NODE_VALUE(400, "InvalidXmlNodeValue"),
  /** An {@code Authorization} header that is not in the expected format. */
  INVALID_AUTHENTICATION_INFO(400, "InvalidAuthenticationInfo"),
  /** An {@code X-HTTP-Method} header naming more than one method. */
  X_METHOD_INCORRECT_COUNT(400, "XMethodIncorrectCount"),
  /** An {@code X-HTTP-Method} header naming a method that cannot be tunnelled. */
  X_METHOD_INCORRECT_VALUE(400, "XMethodIncorrectValue"),
  /** An {@code X-HTTP-Method} header on a request that is not a POST. */
  X_METHOD_NOT_USING_POST(400, "XMethodNotUsingPost"),
  // 401 / 403
  /** A request without credentials where they are required. */
  NO_AUTHENTICATION_INFORMATION(401, "NoAuthenticationInformation"),
  /** A Bearer token that is malformed, expired, for another audience or wrongly signed. */
  INVALID_BEARER_TOKEN(401, "InvalidAuthenticationInfo"),
  /** A signature or SAS that does not match, or credentials the service does not accept. */
  AUTHENTICATION_FAILED(403, "AuthenticationFailed"),
  /** A valid credential that does not allow this operation. */
  AUTHORIZATION_FAILURE(403, "AuthorizationFailure"),
  /** A SAS or token without the permission this operation needs. */
  AUTHORIZATION_PERMISSION_MISMATCH(403, "AuthorizationPermissionMismatch"),
  /** An account SAS that does not grant the Table service. */
  AUTHORIZATION_SERVICE_MISMATCH(403, "AuthorizationServiceMismatch"),
  /** An account SAS that does not grant this resource type. */
  AUTHORIZATION_RESOURCE_TYPE_MISMATCH(403, "AuthorizationResourceTypeMismatch"),
  /** A SAS used from an address outside its IP range. */
  AUTHORIZATION_SOURCE_IP_MISMATCH(403, "AuthorizationSourceIPMismatch"),
  /** A SAS used over a protocol it does not allow. */
  AUTHORIZATION_PROTOCOL_MISMATCH(403, "AuthorizationProtocolMismatch"),
  /** A CORS preflight request that no CORS rule of the account allows. */
  CORS_PREFLIGHT_FAILURE(403, "CorsPreflightFailure"),
  // 404
  /** An operation on a table that does not exist. */
  TABLE_NOT_FOUND(404, "TableNotFound"),
  /** An operation on an entity (or other resource) that does not exist. */
  RESOURCE_NOT_FOUND(404, "ResourceNotFound"),
  // 405
  /** An HTTP method the addressed resource does not support. */
  METHOD_NOT_ALLOWED(405, "MethodNotAllowed"),
  // 409
  /** A table created with the name of an existing one, in any letter case. */
  TABLE_ALREADY_EXISTS(409, "TableAlreadyExists"),
  /** A table created while a table of that name is still being deleted. */
  TABLE_BEING_DELETED(409, "TableBeingDeleted"),
  /** An insert of an entity whose keys are taken. */
  ENTITY_ALREADY_EXISTS(409, "EntityAlreadyExists"),
  // 412
  /** An update, merge or delete whose {@code If-Match} ETag no longer matches. */
  UPDATE_CONDITION_NOT_SATISFIED(412, "UpdateConditionNotSatisfied"),
  // 413 / 415
  /** A request body, or an entity-group transaction, larger than the service accepts. */
  REQUEST_BODY_TOO_LARGE(413, "RequestBodyTooLarge"),
  /** A request for the Atom (XML) entity format, which the service no longer accepts. */
  ATOM_FORMAT_NOT_SUPPORTED(415, "AtomFormatNotSupported"),
  /** A JSON format the requested API version does not support. */
  JSON_FORMAT_NOT_SUPPORTED(415, "JsonFormatNotSupported"),
  // 5xx
  /** A failure of the service itself; nothing a client did. */
  INTERNAL_ERROR(500, "InternalError"),
  /** An operation, or its request body, that did not complete within the permitted time. */
  OPERATION_TIMED_OUT(500, "OperationTimedOut"),
  /** A feature the service does not implement. */
  NOT_IMPLEMENTED(501, "NotImplemented"),
  /** The service, here its database, cannot serve the request now; the Azure SDKs retry it. */
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
