package dev.trestle.server.auth;

import dev.trestle.AccessPolicy;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Checks Shared Key, Shared Key Lite, account SAS and table SAS credentials of a request for one account.
 * Failures are {@code TableException}s with the service's 403 (or 400/401) codes.
 */
public final class RequestAuthenticator {

  /**
   * @param accountKeys account name → its base64 keys
   * @param accessPolicies (account, tableName) → that table's stored access policies (for {@code si})
   * @param allowAnonymous when true, a request without credentials gets full access
   */
  public RequestAuthenticator(Map<String, List<String>> accountKeys,
      BiFunction<String, String, List<AccessPolicy>> accessPolicies, Clock clock, boolean allowAnonymous) {}

  /** Returns what the request may do on {@code account}, or throws. */
  public Grant authenticate(SignedRequest request, String account) {
    throw new UnsupportedOperationException("auth not built yet");
  }
}
