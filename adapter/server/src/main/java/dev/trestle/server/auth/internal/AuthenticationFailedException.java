package dev.trestle.server.auth.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * A 403 {@code AuthenticationFailed}, or for a Bearer token 401 {@code InvalidAuthenticationInfo}:
 * the credential itself is wrong (signature, date, expiry, missing field). {@link #detail()} is
 * what Azure puts in {@code AuthenticationErrorDetail} of XML error bodies; JSON error bodies carry
 * only the standard message.
 */
public final class AuthenticationFailedException extends TableException {
  static final String MESSAGE =
      "Server failed to authenticate the request. "
          + "Make sure the value of Authorization header is formed correctly including the signature.";

  static final String BEARER_MESSAGE =
      "Server failed to authenticate the request. "
          + "Please refer to the information in the www-authenticate header.";

  private final String detail;

  public AuthenticationFailedException(String detail) {
    this(TableErrorCode.AUTHENTICATION_FAILED, MESSAGE, detail);
  }

  AuthenticationFailedException(TableErrorCode code, String message, String detail) {
    super(code, message);
    this.detail = detail;
  }

  /** Why authentication failed, e.g. the string the server signed; never contains a key. */
  public String detail() {
    return detail;
  }
}
