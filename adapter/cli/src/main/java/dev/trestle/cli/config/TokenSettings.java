package dev.trestle.cli.config;

import dev.trestle.server.auth.TokenAuthentication;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The Bearer token settings of {@code serve}: {@code --oauth off|basic|jwks}, where the keys come
 * from ({@code --oauth-jwks FILE|URL}, else {@code --oauth-issuer}'s OpenID configuration), the
 * issuer, the grants file and whether plain HTTP is allowed. Files are read here, so that a missing
 * or malformed one stops the start with a message naming the setting.
 */
public final class TokenSettings {
  private TokenSettings() {}

  /** The flag values as given (null when absent). */
  public record TokenFlags(
      String oauth, String jwks, String issuer, String grants, Boolean allowHttp) {
    public static final TokenFlags NONE = new TokenFlags(null, null, null, null, null);
  }

  /** The token authentication, or empty when {@code --oauth off} (the default). */
  public static Optional<TokenAuthentication> resolve(
      Configuration configuration, TokenFlags flags) {
    Configuration.Value mode = configuration.resolve(Setting.OAUTH, flags.oauth());
    String jwks = configuration.string(Setting.OAUTH_JWKS, flags.jwks());
    String issuer = configuration.string(Setting.OAUTH_ISSUER, flags.issuer());
    String grantsFile = configuration.string(Setting.OAUTH_GRANTS, flags.grants());
    boolean allowHttp = configuration.bool(Setting.OAUTH_ALLOW_HTTP, flags.allowHttp());
    TokenAuthentication tokens =
        switch (mode.text().strip().toLowerCase(Locale.ROOT)) {
          case "off" -> null;
          case "basic" -> TokenAuthentication.basic();
          case "jwks" -> verifying(jwks, issuer);
          default -> throw Configuration.invalid(Setting.OAUTH, mode, "off, basic or jwks");
        };
    if (tokens == null) {
      return Optional.empty();
    }
    if (issuer != null) {
      tokens = tokens.withIssuer(issuer);
    }
    if (grantsFile != null) {
      tokens = tokens.withGrants(grants(grantsFile));
    } else if (tokens.mode() != TokenAuthentication.Mode.BASIC) {
      throw new ConfigurationException(
          "--oauth jwks needs "
              + Setting.OAUTH_GRANTS.flag()
              + " FILE: which token identities may do what in which account"
              + " (lines of CLAIM=VALUE ACCOUNT PERMISSIONS, e.g. oid=<object id> devstoreaccount1"
              + " read,write).");
    }
    return Optional.of(tokens.withHttpAllowed(allowHttp));
  }

  private static TokenAuthentication verifying(String jwks, String issuer) {
    if (jwks == null) {
      if (issuer == null) {
        throw new ConfigurationException(
            "--oauth jwks needs the signing keys: "
                + Setting.OAUTH_JWKS.flag()
                + " FILE|URL, or "
                + Setting.OAUTH_ISSUER.flag()
                + " URL to read them from the issuer's OpenID configuration.");
      }
      return TokenAuthentication.openIdIssuer(issuer);
    }
    if (jwks.startsWith("https://") || jwks.startsWith("http://")) {
      return TokenAuthentication.jwksUrl(URI.create(jwks));
    }
    try {
      return TokenAuthentication.jwks(read(Setting.OAUTH_JWKS, jwks));
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(Setting.OAUTH_JWKS.flag() + ": " + e.getMessage());
    }
  }

  private static java.util.List<TokenAuthentication.Grant> grants(String file) {
    try {
      return TokenAuthentication.Grant.parse(read(Setting.OAUTH_GRANTS, file));
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          Setting.OAUTH_GRANTS.flag() + " file '" + file + "', " + e.getMessage() + ".");
    }
  }

  private static String read(Setting setting, String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new ConfigurationException(
          "Cannot read " + setting.flag() + " file '" + file + "': " + e + ".");
    }
  }
}
