package dev.trestle.server.auth.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * The service's 401/403/400 authentication and authorization errors, with Azure's message texts.
 */
public final class AuthFailures {
  private AuthFailures() {}

  public static AuthenticationFailedException authenticationFailed(String detail) {
    return new AuthenticationFailedException(detail);
  }

  /** A Bearer token that is malformed, expired, wrongly signed, or for another audience. */
  public static AuthenticationFailedException invalidToken(String detail) {
    return new AuthenticationFailedException(
        TableErrorCode.INVALID_BEARER_TOKEN, AuthenticationFailedException.BEARER_MESSAGE, detail);
  }

  public static TableException noAuthenticationInformation() {
    return new TableException(
        TableErrorCode.NO_AUTHENTICATION_INFORMATION,
        "Server failed to authenticate the request. Please refer to the information in the www-authenticate header.");
  }

  public static TableException invalidAuthenticationInfo() {
    return new TableException(
        TableErrorCode.INVALID_AUTHENTICATION_INFO,
        "Authentication information is not given in the correct format. Check the value of Authorization header.");
  }

  public static TableException authorizationFailure() {
    return new TableException(
        TableErrorCode.AUTHORIZATION_FAILURE,
        "This request is not authorized to perform this operation.");
  }

  public static TableException permissionMismatch() {
    return new TableException(
        TableErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
        "This request is not authorized to perform this operation using this permission.");
  }

  public static TableException resourceTypeMismatch() {
    return new TableException(
        TableErrorCode.AUTHORIZATION_RESOURCE_TYPE_MISMATCH,
        "This request is not authorized to perform this operation using this resource type.");
  }

  public static TableException serviceMismatch() {
    return new TableException(
        TableErrorCode.AUTHORIZATION_SERVICE_MISMATCH,
        "This request is not authorized to perform this operation using this service.");
  }

  public static TableException sourceIpMismatch(String ip) {
    return new TableException(
        TableErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
        "This request is not authorized to perform this operation using this source IP "
            + ip
            + ".");
  }

  public static TableException protocolMismatch() {
    return new TableException(
        TableErrorCode.AUTHORIZATION_PROTOCOL_MISMATCH,
        "This request is not authorized to perform this operation using this protocol.");
  }
}
