package dev.trestle.server.auth.internal;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.trestle.server.auth.TokenAuthentication;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.text.ParseException;
import java.util.List;
import java.util.Set;

/**
 * Checks a token's JWS signature against the configured keys (Nimbus JOSE+JWT); the claims are
 * {@link BearerTokenVerifier}'s to check, so that each failure gets Azure's wording.
 */
final class TokenSignatures {
  /** What Entra ID signs with (RS256), and the other asymmetric algorithms a JWK set may hold. */
  private static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384);

  private static final int TIMEOUT_MS = 5_000;

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

  private TokenSignatures(JWKSource<SecurityContext> keys) {
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    // lifetime, issuer and audience are checked afterwards, each with Azure's own message
    processor.setJWTClaimsSetVerifier((claims, context) -> {});
  }

  /** The verifier for the configured keys, or null in basic mode (no signature check). */
  static TokenSignatures of(TokenAuthentication config) {
    return switch (config.mode()) {
      case BASIC -> null;
      case JWKS_DOCUMENT -> new TokenSignatures(new ImmutableJWKSet<>(parse(config.keys())));
      case JWKS_URL -> new TokenSignatures(remote(url(config.keys())));
      case OPENID_ISSUER -> new TokenSignatures(new DiscoveredKeys(config.issuer()));
    };
  }

  /** The verified claims. */
  JWTClaimsSet verify(SignedJWT token) throws BadJOSEException, com.nimbusds.jose.JOSEException {
    return processor.process(token, null);
  }

  private static JWKSet parse(String json) {
    try {
      return JWKSet.parse(json);
    } catch (ParseException e) {
      throw new IllegalArgumentException(
          "The JWK set is not valid JSON Web Key set ({\"keys\":[...]}): " + e.getMessage(), e);
    }
  }

  private static URL url(String text) {
    try {
      return URI.create(text).toURL();
    } catch (IllegalArgumentException | MalformedURLException e) {
      throw new IllegalArgumentException("The JWK set URL '" + text + "' is not a URL", e);
    }
  }

  private static JWKSource<SecurityContext> remote(URL url) {
    return JWKSourceBuilder.create(url, new DefaultResourceRetriever(TIMEOUT_MS, TIMEOUT_MS))
        .retrying(true)
        .build();
  }

  /**
   * The keys behind an issuer's {@code /.well-known/openid-configuration}, looked up on first use
   * (so a server starts while the identity provider is unreachable) and again after a failure.
   */
  private static final class DiscoveredKeys implements JWKSource<SecurityContext> {
    private final String issuer;
    private volatile JWKSource<SecurityContext> keys;

    DiscoveredKeys(String issuer) {
      this.issuer = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
    }

    @Override
    public List<com.nimbusds.jose.jwk.JWK> get(JWKSelector selector, SecurityContext context)
        throws KeySourceException {
      JWKSource<SecurityContext> source = keys;
      if (source == null) {
        source = discover();
        keys = source;
      }
      return source.get(selector, context);
    }

    private JWKSource<SecurityContext> discover() throws KeySourceException {
      String configuration = issuer + "/.well-known/openid-configuration";
      try {
        String json =
            new DefaultResourceRetriever(TIMEOUT_MS, TIMEOUT_MS)
                .retrieveResource(url(configuration))
                .getContent();
        String jwksUri = JSONObjectUtils.getString(JSONObjectUtils.parse(json), "jwks_uri");
        if (jwksUri == null) {
          throw new KeySourceException(configuration + " names no jwks_uri");
        }
        return remote(url(jwksUri));
      } catch (IOException | ParseException | IllegalArgumentException e) {
        throw new KeySourceException("Cannot read " + configuration + ": " + e.getMessage(), e);
      }
    }
  }
}
