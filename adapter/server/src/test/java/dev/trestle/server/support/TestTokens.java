package dev.trestle.server.support;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Entra ID shaped access tokens that the test signs itself with an RSA key of its own, as the
 * identity provider would, and the JWK set a server verifies them with.
 */
public final class TestTokens {
  public static final String TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
  public static final String ISSUER = "https://sts.windows.net/" + TENANT + "/";
  public static final String AUDIENCE = "https://storage.azure.com";

  private final RSAKey key;

  public TestTokens() {
    this("test-key-" + UUID.randomUUID());
  }

  public TestTokens(String keyId) {
    try {
      key = new RSAKeyGenerator(2048).keyID(keyId).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The public half, as the identity provider publishes it. */
  public String jwkSet() {
    return new JWKSet(key.toPublicJWK()).toString();
  }

  /** A token valid for an hour for {@code oid}, with the storage audience and Entra's issuer. */
  public String token(String oid) {
    return token(oid, claims -> claims);
  }

  /** The same token with its claims changed, e.g. an expiry in the past. */
  public String token(String oid, UnaryOperator<JWTClaimsSet.Builder> change) {
    Instant now = Instant.now();
    JWTClaimsSet.Builder claims =
        new JWTClaimsSet.Builder()
            .audience(AUDIENCE)
            .issuer(ISSUER)
            .issueTime(Date.from(now.minus(Duration.ofMinutes(1))))
            .notBeforeTime(Date.from(now.minus(Duration.ofMinutes(1))))
            .expirationTime(Date.from(now.plus(Duration.ofHours(1))))
            .claim("oid", oid)
            .claim("tid", TENANT)
            .claim("appid", "f997392c-e15a-4ad8-af9e-cd6966caba7f")
            .claim("groups", List.of("group-readers"))
            .subject("subject-" + oid);
    return sign(change.apply(claims).build());
  }

  public String sign(JWTClaimsSet claims) {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(key.getKeyID())
                .type(JOSEObjectType.JWT)
                .build(),
            claims);
    try {
      jwt.sign(new RSASSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  public static Date at(Duration fromNow) {
    return Date.from(Instant.now().plus(fromNow));
  }
}
