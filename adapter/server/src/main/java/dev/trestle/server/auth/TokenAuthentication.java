package dev.trestle.server.auth;

import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How the server accepts {@code Authorization: Bearer <JWT>} (Microsoft Entra ID style OAuth), for
 * {@link dev.trestle.server.TrestleServer.Builder#tokens}. Immutable: each {@code with} method
 * returns a copy.
 *
 * <ul>
 *   <li>{@link #basic()}: as Azurite's {@code --oauth basic}, checks the token's form, audience,
 *       issuer and lifetime but not its signature. For tests only: anyone can write such a token.
 *   <li>{@link #jwks(String)}, {@link #jwksUrl(URI)}, {@link #openIdIssuer(String)}: also verifies
 *       the signature against the keys of a JWK set (a document, a URL, or the issuer's OpenID
 *       configuration), as Azure does with Entra ID's keys.
 * </ul>
 *
 * <p>Without {@linkplain #withGrants grants} a valid token may do everything in the account (as
 * with Azurite); with grants, only what a matching {@link Grant} allows. Bearer tokens are accepted
 * over HTTPS only, as Azure does, unless {@link #withHttpAllowed} says otherwise.
 */
public final class TokenAuthentication {

  /** Where the signing keys come from. */
  public enum Mode {
    /** No signature check. */
    BASIC,
    /** A JWK set given as JSON. */
    JWKS_DOCUMENT,
    /** A JWK set fetched (and cached, and refreshed on an unknown key id) from a URL. */
    JWKS_URL,
    /** The {@code jwks_uri} of the issuer's {@code /.well-known/openid-configuration}. */
    OPENID_ISSUER
  }

  /** What a token may do in an account, as the Azure roles Storage Table Data Reader and so on. */
  public enum Permission {
    /** List tables, query and read entities, read service properties and stats. */
    READ,
    /** Insert, update, merge and upsert entities. */
    WRITE,
    /** Delete entities. */
    DELETE,
    /** Create and delete tables, read and set table ACLs and service properties. */
    MANAGE;

    static Permission parse(String text) {
      try {
        return valueOf(text.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown permission '" + text + "': use read, write, delete or manage (or all)");
      }
    }
  }

  /**
   * Grants {@code permissions} in {@code account} ({@code *}: every account) to tokens whose {@code
   * claim} (e.g. {@code oid}, {@code appid}, {@code sub}, {@code groups}, {@code roles}) equals
   * {@code value} or, for a list claim, contains it.
   */
  public record Grant(String claim, String value, String account, Set<Permission> permissions) {
    public Grant {
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(account, "account");
      permissions = Set.copyOf(permissions);
    }

    /** True for {@code account}, or for every account when this grant names {@code *}. */
    public boolean covers(String accountName) {
      return account.equals("*") || account.equals(accountName);
    }

    /**
     * Reads grants, one a line: {@code CLAIM=VALUE ACCOUNT PERMISSION[,PERMISSION...]}, e.g. {@code
     * oid=11059fcc-5514-4800-b5f8-49808b9cfab6 devstoreaccount1 read,write,delete} or {@code
     * roles=Tables.Admin * all}. Blank lines and lines starting with {@code #} are skipped.
     *
     * @throws IllegalArgumentException naming the line that is not of that form
     */
    public static List<Grant> parse(String text) {
      List<Grant> grants = new ArrayList<>();
      String[] lines = text.split("\\R", -1);
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i].strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        try {
          grants.add(parseLine(line));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "line "
                  + (i + 1)
                  + " '"
                  + line
                  + "': "
                  + e.getMessage()
                  + "; the form is CLAIM=VALUE ACCOUNT PERMISSIONS, e.g."
                  + " oid=11059fcc-5514-4800-b5f8-49808b9cfab6 devstoreaccount1 read,write",
              e);
        }
      }
      return List.copyOf(grants);
    }

    private static Grant parseLine(String line) {
      String[] fields = line.split("\\s+");
      if (fields.length != 3) {
        throw new IllegalArgumentException("expected three fields, found " + fields.length);
      }
      int equals = fields[0].indexOf('=');
      if (equals <= 0 || equals == fields[0].length() - 1) {
        throw new IllegalArgumentException("the first field is not CLAIM=VALUE");
      }
      Set<Permission> permissions = EnumSet.noneOf(Permission.class);
      for (String name : fields[2].split(",")) {
        if (name.strip().equalsIgnoreCase("all")) {
          permissions.addAll(EnumSet.allOf(Permission.class));
        } else {
          permissions.add(Permission.parse(name));
        }
      }
      return new Grant(
          fields[0].substring(0, equals), fields[0].substring(equals + 1), fields[1], permissions);
    }
  }

  private final Mode mode;
  private final String keys;
  private final String issuer;
  private final List<Grant> grants;
  private final boolean httpAllowed;

  private TokenAuthentication(
      Mode mode, String keys, String issuer, List<Grant> grants, boolean httpAllowed) {
    this.mode = mode;
    this.keys = keys;
    this.issuer = issuer;
    this.grants = grants;
    this.httpAllowed = httpAllowed;
  }

  /** Checks form, audience, issuer and lifetime, not the signature: for tests only. */
  public static TokenAuthentication basic() {
    return new TokenAuthentication(Mode.BASIC, null, null, null, false);
  }

  /** Verifies signatures with the keys of a JWK set document ({@code {"keys":[...]}}). */
  public static TokenAuthentication jwks(String jwkSetJson) {
    Objects.requireNonNull(jwkSetJson, "jwkSetJson");
    return new TokenAuthentication(Mode.JWKS_DOCUMENT, jwkSetJson, null, null, false);
  }

  /** Verifies signatures with the keys a JWK set URL serves. */
  public static TokenAuthentication jwksUrl(URI jwkSetUrl) {
    Objects.requireNonNull(jwkSetUrl, "jwkSetUrl");
    return new TokenAuthentication(Mode.JWKS_URL, jwkSetUrl.toString(), null, null, false);
  }

  /**
   * Verifies signatures with the keys the issuer publishes through OpenID discovery, and requires
   * {@code iss} to be this issuer, e.g. {@code https://login.microsoftonline.com/{tenant}/v2.0}.
   */
  public static TokenAuthentication openIdIssuer(String issuer) {
    Objects.requireNonNull(issuer, "issuer");
    return new TokenAuthentication(Mode.OPENID_ISSUER, null, issuer, null, false);
  }

  /**
   * Requires {@code iss} to equal this issuer (a trailing slash aside). Without one, the issuer
   * must be Entra ID's: {@code https://sts.windows.net/{tenant}/} or {@code
   * https://login.microsoftonline.com/{tenant}/v2.0} (and the other clouds' equivalents).
   */
  public TokenAuthentication withIssuer(String expectedIssuer) {
    return new TokenAuthentication(mode, keys, expectedIssuer, grants, httpAllowed);
  }

  /** Maps token identities to accounts and permissions; a token no grant matches may do nothing. */
  public TokenAuthentication withGrants(List<Grant> tokenGrants) {
    return new TokenAuthentication(mode, keys, issuer, List.copyOf(tokenGrants), httpAllowed);
  }

  /**
   * Accepts Bearer tokens over plain HTTP too. Azure and Azurite refuse them there (a token sent in
   * clear text can be replayed): for tests behind a trusted network only.
   */
  public TokenAuthentication withHttpAllowed(boolean allowed) {
    return new TokenAuthentication(mode, keys, issuer, grants, allowed);
  }

  public Mode mode() {
    return mode;
  }

  /** The JWK set document or URL; null in the other modes. */
  public String keys() {
    return keys;
  }

  /** The required issuer, or null for Entra ID's issuer patterns. */
  public String issuer() {
    return issuer;
  }

  /** The grants, or null when every valid token may do everything. */
  public List<Grant> grants() {
    return grants;
  }

  public boolean httpAllowed() {
    return httpAllowed;
  }
}
