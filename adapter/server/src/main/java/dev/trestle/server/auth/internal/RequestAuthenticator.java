package dev.trestle.server.auth.internal;

import dev.trestle.AccessPolicy;
import dev.trestle.server.auth.TokenAuthentication;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Checks Shared Key, Shared Key Lite, account SAS and table SAS credentials of a request for one
 * account. Failures are {@code TableException}s with the service's 403 (or 400/401) codes.
 *
 * <p>An {@code Authorization: Bearer} header means a token (when tokens are accepted), any other
 * {@code Authorization} header Shared Key; otherwise a {@code sig} query parameter means a SAS
 * (account SAS when it has {@code ss} or {@code srt}, else table SAS); with neither the request is
 * anonymous, which only passes when anonymous access is switched on (401 {@code
 * NoAuthenticationInformation} otherwise).
 */
public final class RequestAuthenticator {

  /** Azure's tolerance between the request's date and the server clock. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofMinutes(15);

  private static final String BEARER = "Bearer ";

  /** The headers a Shared Key signature covers or is checked against. */
  private static final List<String> SIGNED_HEADERS =
      List.of("x-ms-date", "Date", "Content-MD5", "Content-Type");

  private final SharedKeyVerifier sharedKey;
  private final AccountSasVerifier accountSas;
  private final TableSasVerifier tableSas;
  private final boolean allowAnonymous;

  /** Null when Bearer tokens are not accepted. */
  private final BearerTokenVerifier bearer;

  /**
   * @param accountKeys account name → its base64 keys
   * @param accessPolicies (account, tableName) → that table's stored access policies (for {@code
   *     si}); an empty list (or null) when the table does not exist
   * @param allowAnonymous when true, a request without credentials gets full access
   */
  public RequestAuthenticator(
      Map<String, List<String>> accountKeys,
      BiFunction<String, String, List<AccessPolicy>> accessPolicies,
      Clock clock,
      boolean allowAnonymous) {
    this(accountKeys, accessPolicies, clock, allowAnonymous, DEFAULT_CLOCK_SKEW);
  }

  /**
   * @param clockSkew how far a Shared Key request's {@code x-ms-date}/{@code Date} may be from
   *     {@code clock}, either way, before it fails with {@code AuthenticationFailed}
   * @throws IllegalArgumentException when a key is not base64 or the skew is negative
   */
  public RequestAuthenticator(
      Map<String, List<String>> accountKeys,
      BiFunction<String, String, List<AccessPolicy>> accessPolicies,
      Clock clock,
      boolean allowAnonymous,
      Duration clockSkew) {
    this(accountKeys, accessPolicies, clock, allowAnonymous, clockSkew, null);
  }

  /**
   * @param tokens how Bearer tokens are checked; null refuses them as a malformed Shared Key
   * @throws IllegalArgumentException when a key is not base64, the skew is negative or the token
   *     keys cannot be read
   */
  public RequestAuthenticator(
      Map<String, List<String>> accountKeys,
      BiFunction<String, String, List<AccessPolicy>> accessPolicies,
      Clock clock,
      boolean allowAnonymous,
      Duration clockSkew,
      TokenAuthentication tokens) {
    this(accountKeys, accessPolicies, clock, allowAnonymous, clockSkew, tokens, false);
  }

  /**
   * @param undatedSharedKey whether a Shared Key or Shared Key Lite request without {@code
   *     x-ms-date} and {@code Date} is checked with an empty date line instead of refused
   *     (Azurite's {@code --loose}; Azure refuses it)
   * @throws IllegalArgumentException when a key is not base64, the skew is negative or the token
   *     keys cannot be read
   */
  public RequestAuthenticator(
      Map<String, List<String>> accountKeys,
      BiFunction<String, String, List<AccessPolicy>> accessPolicies,
      Clock clock,
      boolean allowAnonymous,
      Duration clockSkew,
      TokenAuthentication tokens,
      boolean undatedSharedKey) {
    Objects.requireNonNull(accessPolicies, "accessPolicies");
    Objects.requireNonNull(clock, "clock");
    if (clockSkew == null || clockSkew.isNegative()) {
      throw new IllegalArgumentException(
          "clockSkew must be zero or positive, e.g. Duration.ofMinutes(15)");
    }
    AccountKeys keys = new AccountKeys(accountKeys);
    this.sharedKey = new SharedKeyVerifier(keys, clock, clockSkew, undatedSharedKey);
    this.accountSas = new AccountSasVerifier(keys, clock);
    this.tableSas = new TableSasVerifier(keys, accessPolicies, clock);
    this.allowAnonymous = allowAnonymous;
    this.bearer = tokens == null ? null : new BearerTokenVerifier(tokens, clock);
  }

  /**
   * The {@code WWW-Authenticate} value for 401 answers when Bearer tokens are accepted, as Azure
   * sends it: where a client gets a token for the storage resource.
   */
  public Optional<String> bearerChallenge() {
    return Optional.ofNullable(bearer).map(BearerTokenVerifier::challenge);
  }

  /**
   * Returns what the request may do on {@code account}, or throws. A credential given twice (a
   * repeated {@code Authorization} header, a repeated header that Shared Key signs, a repeated SAS
   * parameter) fails with {@code AuthenticationFailed}, as Azure answers it: reading either value
   * would let what was signed and what is used disagree.
   */
  public Grant authenticate(SignedRequest request, String account) {
    refuseRepeated(request, "Authorization");
    for (String name : SasParameters.NAMES) {
      if (request.queryParameters(name).size() > 1) {
        throw AuthFailures.authenticationFailed(
            "The query parameter " + name + " is given more than once.");
      }
    }
    String authorization = request.header("Authorization");
    if (authorization != null && !authorization.isBlank()) {
      for (String signed : SIGNED_HEADERS) {
        refuseRepeated(request, signed);
      }
      if (bearer != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
        return bearer.verify(request, account, authorization.substring(BEARER.length()).strip());
      }
      sharedKey.verify(request, account, authorization);
      return FullAccessGrant.INSTANCE;
    }
    if (has(request, "sig")) {
      boolean accountSasToken = has(request, "ss") || has(request, "srt");
      return accountSasToken
          ? accountSas.verify(request, account)
          : tableSas.verify(request, account);
    }
    if (allowAnonymous) {
      return FullAccessGrant.INSTANCE;
    }
    throw AuthFailures.noAuthenticationInformation();
  }

  private static void refuseRepeated(SignedRequest request, String header) {
    if (request.headerValues(header).size() > 1) {
      throw AuthFailures.authenticationFailed("The header " + header + " is given more than once.");
    }
  }

  private static boolean has(SignedRequest request, String name) {
    List<String> values = request.queryParameters(name);
    return values != null && !values.isEmpty();
  }

  /** True when {@code name} is a SAS query parameter; see {@link SasParameters}. */
  public static boolean isSasParameter(String name) {
    return SasParameters.isSasParameter(name);
  }
}
