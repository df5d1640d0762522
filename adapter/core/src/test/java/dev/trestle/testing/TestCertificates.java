package dev.trestle.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates made in the test, for HTTPS tests: a key pair and its certificate for some DNS names
 * and IP addresses, self-signed or issued by a test CA, written in the file forms operators have
 * (PEM PKCS#8, OpenSSL's traditional RSA and EC keys, encrypted keys, PKCS#12), and a client {@link
 * SSLContext} that trusts it.
 */
public final class TestCertificates {
  private static final Pattern IP_ADDRESS = Pattern.compile("[0-9.]+|.*:.*");
  private static final java.security.Provider BOUNCY_CASTLE =
      new org.bouncycastle.jce.provider.BouncyCastleProvider();
  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private TestCertificates() {}

  /** A key and its certificate. */
  public record Issued(KeyPair keys, X509Certificate certificate, List<X509Certificate> chain) {

    /** The certificate chain as PEM, this certificate first. */
    public String certificatePem() {
      return pem(chain.toArray());
    }

    public Path writeCertificate(Path file) {
      return write(file, certificatePem());
    }

    /** {@code -----BEGIN PRIVATE KEY-----}: PKCS#8, as OpenSSL 3 writes keys. */
    public Path writeKeyPkcs8(Path file) {
      try {
        return write(file, pem(new JcaPKCS8Generator(keys.getPrivate(), null)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /**
     * {@code -----BEGIN RSA PRIVATE KEY-----} or {@code EC PRIVATE KEY}: OpenSSL's traditional
     * form.
     */
    public Path writeKeyTraditional(Path file) {
      return write(file, traditionalKeyPem());
    }

    private String traditionalKeyPem() {
      if (!(keys.getPrivate() instanceof java.security.interfaces.ECPrivateKey ec)) {
        return pem(keys.getPrivate()); // PKCS#1 for RSA
      }
      // SEC1 with the curve and the public key inside, as OpenSSL writes it (the JDK's PKCS#8
      // encoding keeps the curve outside, where a bare conversion would lose it)
      var info = org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(ec.getEncoded());
      var sec1 =
          new org.bouncycastle.asn1.sec.ECPrivateKey(
              ec.getParams().getOrder().bitLength(),
              ec.getS(),
              org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(
                      keys.getPublic().getEncoded())
                  .getPublicKeyData(),
              info.getPrivateKeyAlgorithm().getParameters());
      try {
        return pem(new org.bouncycastle.util.io.pem.PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** {@code -----BEGIN ENCRYPTED PRIVATE KEY-----}: PKCS#8 with PBES2 and AES-256. */
    public Path writeKeyEncryptedPkcs8(Path file, char[] password) {
      try {
        var encryptor =
            new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                .setProvider(BOUNCY_CASTLE)
                .setPassword(password)
                .build();
        return write(file, pem(new JcaPKCS8Generator(keys.getPrivate(), encryptor)));
      } catch (IOException | OperatorCreationException e) {
        throw new IllegalStateException(e);
      }
    }

    /** OpenSSL's traditional form with {@code Proc-Type: 4,ENCRYPTED} and AES-256-CBC. */
    public Path writeKeyEncryptedTraditional(Path file, char[] password) {
      try {
        var encryptor =
            new JcePEMEncryptorBuilder("AES-256-CBC").setProvider(BOUNCY_CASTLE).build(password);
        return write(file, pem(new JcaMiscPEMGenerator(keys.getPrivate(), encryptor)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The chain then the key, in one PEM file. */
    public Path writeCombined(Path file) {
      return write(file, certificatePem() + traditionalKeyPem());
    }

    /** A PKCS#12 file ({@code .pfx}) with the key and chain, under one password. */
    public Path writePkcs12(Path file, char[] password) {
      try (OutputStream out = Files.newOutputStream(file)) {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("server", keys.getPrivate(), password, chain.toArray(Certificate[]::new));
        store.store(out, password);
        return file;
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    /** A client TLS context trusting this certificate only. */
    public SSLContext clientContext() {
      try {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("trusted", chain.getLast());
        TrustManagerFactory trust =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * A self-signed certificate valid for a day, for these DNS names and IP addresses.
   *
   * @param algorithm {@code RSA}, {@code EC} (P-256) or {@code Ed25519}
   */
  public static Issued selfSigned(String algorithm, String... names) {
    KeyPair keys = keyPair(algorithm);
    X509Certificate certificate =
        certificate(keys, keys, subject(names), subject(names), false, names);
    return new Issued(keys, certificate, List.of(certificate));
  }

  /** A test certificate authority (self-signed, EC). */
  public static Issued authority(String name) {
    KeyPair keys = keyPair("EC");
    X500Name subject = new X500Name("CN=" + name);
    X509Certificate certificate = certificate(keys, keys, subject, subject, true);
    return new Issued(keys, certificate, List.of(certificate));
  }

  /** A certificate issued by {@code authority}, with the authority's certificate in its chain. */
  public static Issued issuedBy(Issued authority, String algorithm, String... names) {
    KeyPair keys = keyPair(algorithm);
    X509Certificate certificate =
        certificate(
            keys,
            authority.keys(),
            subject(names),
            new X500Name(authority.certificate().getSubjectX500Principal().getName()),
            false,
            names);
    return new Issued(keys, certificate, List.of(certificate, authority.certificate()));
  }

  private static X500Name subject(String... names) {
    return new X500Name("CN=" + (names.length == 0 ? "trestle-test" : names[0]));
  }

  private static KeyPair keyPair(String algorithm) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      switch (algorithm) {
        case "RSA" -> generator.initialize(2048);
        case "EC" -> generator.initialize(new ECGenParameterSpec("secp256r1"));
        default -> {}
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static X509Certificate certificate(
      KeyPair subjectKeys,
      KeyPair issuerKeys,
      X500Name subject,
      X500Name issuer,
      boolean authority,
      String... names) {
    try {
      Instant now = Instant.now();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              issuer,
              BigInteger.valueOf(SERIAL.incrementAndGet()),
              Date.from(now.minus(Duration.ofHours(1))),
              Date.from(now.plus(Duration.ofDays(1))),
              subject,
              subjectKeys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
      if (names.length > 0) {
        GeneralName[] alternatives = new GeneralName[names.length];
        for (int i = 0; i < names.length; i++) {
          alternatives[i] =
              IP_ADDRESS.matcher(names[i]).matches()
                  ? new GeneralName(
                      GeneralName.iPAddress,
                      new org.bouncycastle.asn1.DEROctetString(
                          InetAddress.getByName(names[i]).getAddress()))
                  : new GeneralName(GeneralName.dNSName, names[i]);
        }
        builder.addExtension(
            Extension.subjectAlternativeName, false, new GeneralNames(alternatives));
      }
      String signature =
          switch (issuerKeys.getPrivate().getAlgorithm().toUpperCase(Locale.ROOT)) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> "Ed25519";
          };
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder(signature)
                      .setSecureRandom(new SecureRandom())
                      .build(issuerKeys.getPrivate())));
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(Object... objects) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      for (Object object : objects) {
        writer.writeObject(object);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  private static Path write(Path file, String text) {
    try {
      return Files.writeString(file, text, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
