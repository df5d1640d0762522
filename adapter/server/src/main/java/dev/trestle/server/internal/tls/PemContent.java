package dev.trestle.server.internal.tls;

import dev.trestle.server.internal.tls.CertificateFileException.Part;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * The certificates and private key of a PEM file, in every form OpenSSL writes: PKCS#8 keys (plain
 * or encrypted), PKCS#1 RSA and SEC1 EC keys (plain or with a {@code DEK-Info} password), any
 * number of certificates, and text around the blocks. Parsed by Bouncy Castle's {@link PEMParser};
 * the keys become the JDK's own key objects.
 */
record PemContent(List<X509Certificate> certificates, PrivateKey key) {

  /**
   * OpenSSL's key encryption names ciphers and key derivations (PBKDF-OpenSSL, AES with PKCS#7
   * padding) that only Bouncy Castle's provider has; it is used for them alone, never installed,
   * and made only when an encrypted key is read.
   */
  private static final class Ciphers {
    static final Provider PROVIDER = new BouncyCastleProvider();
  }

  static boolean isPem(byte[] content) {
    return new String(content, StandardCharsets.ISO_8859_1).contains("-----BEGIN ");
  }

  /**
   * @param part which setting names the file, for the errors
   * @param password the key's password when it is encrypted; may be null
   */
  static PemContent parse(byte[] content, Path file, Part part, char[] password) {
    List<X509Certificate> certificates = new ArrayList<>();
    PrivateKey key = null;
    JcaPEMKeyConverter keys = new JcaPEMKeyConverter();
    try (PEMParser parser =
        new PEMParser(new StringReader(new String(content, StandardCharsets.UTF_8)))) {
      for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
        PrivateKey found =
            switch (item) {
              case X509CertificateHolder holder -> {
                certificates.add(new JcaX509CertificateConverter().getCertificate(holder));
                yield null;
              }
              case PrivateKeyInfo info -> keys.getPrivateKey(info);
              // the private key alone: OpenSSL's EC keys may come without their public half
              case PEMKeyPair pair -> keys.getPrivateKey(pair.getPrivateKeyInfo());
              case PKCS8EncryptedPrivateKeyInfo encrypted ->
                  keys.getPrivateKey(decrypt(encrypted, file, password));
              case PEMEncryptedKeyPair encrypted ->
                  keys.getPrivateKey(decrypt(encrypted, file, password).getPrivateKeyInfo());
              default -> null; // EC parameters, public keys, CRLs: not needed to serve
            };
        if (found != null) {
          if (key != null) {
            throw new CertificateFileException(
                Part.KEY,
                "'" + file + "' holds more than one private key; keep the server's key only.");
          }
          key = found;
        }
      }
    } catch (CertificateFileException e) {
      throw e;
    } catch (IOException | CertificateException | RuntimeException e) {
      throw new CertificateFileException(
          part, "'" + file + "' is not valid PEM: " + reason(e) + ".", e);
    }
    return new PemContent(certificates, key);
  }

  private static PrivateKeyInfo decrypt(
      PKCS8EncryptedPrivateKeyInfo encrypted, Path file, char[] password) {
    requirePassword(file, password);
    try {
      return encrypted.decryptPrivateKeyInfo(
          new JceOpenSSLPKCS8DecryptorProviderBuilder()
              .setProvider(Ciphers.PROVIDER)
              .build(password));
    } catch (PKCSException | OperatorCreationException | RuntimeException e) {
      throw wrongPassword(file, e);
    }
  }

  private static PEMKeyPair decrypt(PEMEncryptedKeyPair encrypted, Path file, char[] password) {
    requirePassword(file, password);
    try {
      return encrypted.decryptKeyPair(
          new JcePEMDecryptorProviderBuilder().setProvider(Ciphers.PROVIDER).build(password));
    } catch (IOException | RuntimeException e) {
      throw wrongPassword(file, e);
    }
  }

  private static void requirePassword(Path file, char[] password) {
    if (password == null || password.length == 0) {
      throw new CertificateFileException(
          Part.PASSWORD, "the private key in '" + file + "' is encrypted: give its password.");
    }
  }

  private static CertificateFileException wrongPassword(Path file, Exception e) {
    return new CertificateFileException(
        Part.PASSWORD,
        "the private key in '" + file + "' cannot be decrypted with the password given.",
        e);
  }

  private static String reason(Exception e) {
    Throwable cause = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
