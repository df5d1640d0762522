package dev.trestle.server.internal.tls;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.util.List;
import java.util.Optional;

/**
 * Whether a private key belongs to a certificate: RSA keys by their modulus, other keys by signing
 * a random challenge and verifying it with the certificate's public key.
 */
final class KeyMatch {
  private KeyMatch() {}

  /** The certificate among {@code chain} that {@code key} belongs to. */
  static Optional<X509Certificate> certificateOf(PrivateKey key, List<X509Certificate> chain) {
    return chain.stream().filter(c -> matches(key, c.getPublicKey())).findFirst();
  }

  static boolean matches(PrivateKey key, PublicKey certified) {
    if (key instanceof RSAKey rsa) {
      return certified instanceof RSAKey publicRsa
          && rsa.getModulus().equals(publicRsa.getModulus());
    }
    String algorithm =
        switch (key.getAlgorithm()) {
          case "EC" -> "SHA256withECDSA";
          case "DSA" -> "SHA256withDSA";
          case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
          default -> null;
        };
    if (!key.getAlgorithm().equals(certified.getAlgorithm())) {
      return false;
    }
    if (algorithm == null) {
      return true; // a kind of key not checked here: the TLS handshake will tell
    }
    try {
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certified);
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false; // a key of another curve or size: not this certificate's
    }
  }
}
