package dev.trestle.server.auth.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import dev.trestle.server.auth.TokenAuthentication;
import dev.trestle.server.auth.TokenAuthentication.Permission;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks {@code Authorization: Bearer <JWT>} as Azure Storage checks Entra ID tokens: HTTPS, form,
 * signature (unless basic), lifetime, issuer and audience, in that order; then maps the token's
 * identity to what it may do in the account. Invalid tokens are 401 {@code
 * InvalidAuthenticationInfo} with Azure's {@code AuthenticationErrorDetail}; the caller adds the
 * {@code WWW-Authenticate} challenge.
 */
final class BearerTokenVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(BearerTokenVerifier.class);

  /** The tolerance Entra ID's token validation allows on {@code exp} and {@code nbf}. */
  static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /** The first service version that accepts Bearer tokens on the Table service. */
  private static final String FIRST_BEARER_VERSION = "2019-02-02";

  /** Entra ID's v1 and v2 issuers in each cloud; group 1 is the tenant. */
  private static final List<Pattern> ENTRA_ISSUERS =
      List.of(
          Pattern.compile(
              "https://sts\\.(?:windows\\.net|microsoftonline\\.de|chinacloudapi\\.cn|windows-ppe\\.net)/([^/]+)/"),
          Pattern.compile(
              "https://login\\.(?:microsoftonline\\.com|microsoftonline\\.us|chinacloudapi\\.cn|partner\\.microsoftonline\\.cn)/([^/]+)/v2\\.0"));

  /** Audiences of the storage service; group 1, where present, must be the account. */
  private static final List<Pattern> STORAGE_AUDIENCES =
      List.of(
          Pattern.compile("https://storage\\.azure\\.com/?"),
          Pattern.compile("e406a681-f3d4-42a8-90b6-c2b029497af1"),
          Pattern.compile(
              "https://([^./]+)\\.table\\.core\\.(?:windows\\.net|chinacloudapi\\.cn|usgovcloudapi\\.net|cloudapi\\.de)/?"));

  private final TokenAuthentication config;
  private final TokenSignatures signatures;
  private final Clock clock;

  BearerTokenVerifier(TokenAuthentication config, Clock clock) {
    this.config = config;
    this.signatures = TokenSignatures.of(config);
    this.clock = clock;
  }

  /**
   * The challenge Azure sends with a 401: where to get a token, and for which resource. The tenant
   * is the configured issuer's, else {@code common}.
   */
  String challenge() {
    String tenant = config.issuer() == null ? null : tenantOf(config.issuer());
    return "Bearer authorization_uri=https://login.microsoftonline.com/"
        + (tenant == null ? "common" : tenant)
        + "/oauth2/authorize resource_id=https://storage.azure.com";
  }

  Grant verify(SignedRequest request, String account, String token) {
    if (!request.secure() && !config.httpAllowed()) {
      throw AuthFailures.authenticationFailed(
          "Authentication scheme Bearer is not allowed with HTTP.");
    }
    String version = request.header("x-ms-version");
    if (version != null && version.compareTo(FIRST_BEARER_VERSION) < 0) {
      throw AuthFailures.authenticationFailed(
          "Authentication scheme Bearer is not supported in this version.");
    }
    JWTClaimsSet claims = claims(token);
    checkLifetime(claims);
    checkIssuer(claims.getIssuer());
    checkAudience(claims.getAudience(), request, account);
    return grantFor(claims, account);
  }

  private JWTClaimsSet claims(String token) {
    JWT jwt;
    try {
      jwt = JWTParser.parse(token);
    } catch (ParseException e) {
      throw AuthFailures.invalidToken("The token is malformed: " + e.getMessage());
    }
    try {
      if (signatures == null) {
        return jwt.getJWTClaimsSet();
      }
      if (!(jwt instanceof SignedJWT signed)) {
        throw AuthFailures.invalidToken("Signature validation failed. The token is not signed.");
      }
      return signatures.verify(signed);
    } catch (ParseException e) {
      throw AuthFailures.invalidToken("The token is malformed: " + e.getMessage());
    } catch (KeySourceException e) {
      LOG.warn("Bearer token signing keys could not be read: {}", e.getMessage());
      throw AuthFailures.invalidToken(
          "Signature validation failed. The signing keys could not be read.");
    } catch (BadJOSEException | JOSEException e) {
      throw AuthFailures.invalidToken("Signature validation failed.");
    }
  }

  private void checkLifetime(JWTClaimsSet claims) {
    Date expires = claims.getExpirationTime();
    Date notBefore = claims.getNotBeforeTime();
    if (expires == null) {
      throw AuthFailures.invalidToken(
          "Lifetime validation failed. The token is missing an Expiration Time.");
    }
    Instant now = clock.instant();
    if (expires.toInstant().plus(CLOCK_SKEW).isBefore(now)) {
      throw AuthFailures.invalidToken("Lifetime validation failed. The token is expired.");
    }
    if (notBefore != null && notBefore.toInstant().minus(CLOCK_SKEW).isAfter(now)) {
      throw AuthFailures.invalidToken("Lifetime validation failed. The token is not yet valid.");
    }
  }

  private void checkIssuer(String issuer) {
    boolean valid =
        issuer != null
            && (config.issuer() != null
                ? withoutSlash(issuer).equals(withoutSlash(config.issuer()))
                : tenantOf(issuer) != null);
    if (!valid) {
      throw AuthFailures.invalidToken("Issuer validation failed. Issuer did not match.");
    }
  }

  /**
   * Azure's storage audiences, an account-specific one only for that account, and the account's URL
   * as this server serves it: {@code https://host:port/account}, or host-style {@code
   * https://account.table.suffix} when the host names the account.
   */
  private static void checkAudience(List<String> audiences, SignedRequest request, String account) {
    String host = request.header("Host");
    String root = (request.secure() ? "https://" : "http://") + host;
    String served = root + "/" + account;
    boolean hostNamesAccount =
        host != null
            && host.toLowerCase(Locale.ROOT).startsWith(account.toLowerCase(Locale.ROOT) + ".");
    for (String audience : audiences) {
      String expected = withoutSlash(audience);
      if (host != null
          && (expected.equals(served) || hostNamesAccount && expected.equalsIgnoreCase(root))) {
        return;
      }
      for (Pattern pattern : STORAGE_AUDIENCES) {
        Matcher m = pattern.matcher(audience);
        if (m.matches() && (m.groupCount() == 0 || m.group(1).equals(account))) {
          return;
        }
      }
    }
    throw AuthFailures.invalidToken("Audience validation failed. Audience did not match.");
  }

  private Grant grantFor(JWTClaimsSet claims, String account) {
    if (config.grants() == null) {
      return TokenGrant.EVERYTHING;
    }
    Set<Permission> permissions = EnumSet.noneOf(Permission.class);
    for (TokenAuthentication.Grant grant : config.grants()) {
      if (grant.covers(account) && holds(claims.getClaim(grant.claim()), grant.value())) {
        permissions.addAll(grant.permissions());
      }
    }
    // a known token without any grant here is authenticated but may do nothing, as in Azure
    return new TokenGrant(permissions);
  }

  private static boolean holds(Object claim, String value) {
    if (claim instanceof Collection<?> values) {
      return values.stream().anyMatch(v -> value.equals(String.valueOf(v)));
    }
    return claim != null && value.equals(String.valueOf(claim));
  }

  /** The tenant of an Entra ID issuer, or null when {@code issuer} is not one. */
  private static String tenantOf(String issuer) {
    for (Pattern pattern : ENTRA_ISSUERS) {
      Matcher m = pattern.matcher(issuer);
      if (m.matches()) {
        return m.group(1);
      }
    }
    return null;
  }

  private static String withoutSlash(String text) {
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }
}
