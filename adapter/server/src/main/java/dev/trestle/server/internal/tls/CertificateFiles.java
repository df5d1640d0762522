package dev.trestle.server.internal.tls;

import dev.trestle.server.internal.tls.CertificateFileException.Part;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Reads the server's certificate and key as Azurite takes them: a PEM certificate (chain) with a
 * PEM key, a PEM file holding both, or a PKCS#12 ({@code .pfx}, {@code .p12}) file with its
 * password. Each failure names the file and what to do; the key must match a certificate of the
 * chain.
 */
public final class CertificateFiles {
  private CertificateFiles() {}

  /**
   * @param certificate a PEM certificate chain (possibly with its key), or a PKCS#12 file
   * @param key the PEM private key, or null when {@code certificate} holds it
   * @param password the PKCS#12 password, or the password of an encrypted PEM key; may be null
   */
  public static TlsIdentity read(Path certificate, Path key, char[] password) {
    byte[] content = read(certificate, Part.CERTIFICATE);
    if (!PemContent.isPem(content)) {
      if (key != null) {
        throw new CertificateFileException(
            Part.KEY,
            "'"
                + certificate
                + "' is not PEM text, so it is taken as a PKCS#12 (.pfx) file, which holds its own"
                + " key: leave out the key file and give the PKCS#12 password.");
      }
      return pkcs12(content, certificate, password);
    }
    PemContent certificates = PemContent.parse(content, certificate, Part.CERTIFICATE, password);
    if (certificates.certificates().isEmpty()) {
      throw new CertificateFileException(
          Part.CERTIFICATE,
          "'"
              + certificate
              + "' holds no certificate (a PEM block '-----BEGIN CERTIFICATE-----', or a PKCS#12"
              + " file).");
    }
    PrivateKey privateKey;
    Path keyFile;
    if (key == null) {
      if (certificates.key() == null) {
        throw new CertificateFileException(
            Part.KEY,
            "'"
                + certificate
                + "' holds certificates but no private key: give the PEM file of the key too.");
      }
      privateKey = certificates.key();
      keyFile = certificate;
    } else {
      PemContent keys = PemContent.parse(read(key, Part.KEY), key, Part.KEY, password);
      if (keys.key() == null) {
        throw new CertificateFileException(
            Part.KEY,
            "'"
                + key
                + "' holds no private key (a PEM block '-----BEGIN PRIVATE KEY-----', '-----BEGIN"
                + " RSA PRIVATE KEY-----' or '-----BEGIN EC PRIVATE KEY-----').");
      }
      privateKey = keys.key();
      keyFile = key;
    }
    return identity(privateKey, certificates.certificates(), keyFile, certificate);
  }

  /** The key with its chain, the key's own certificate moved first whatever the file's order. */
  private static TlsIdentity identity(
      PrivateKey key, List<X509Certificate> chain, Path keyFile, Path certificateFile) {
    X509Certificate own =
        KeyMatch.certificateOf(key, chain)
            .orElseThrow(
                () ->
                    new CertificateFileException(
                        Part.KEY,
                        "the private key in '"
                            + keyFile
                            + "' does not match the certificate in '"
                            + certificateFile
                            + "' ("
                            + chain.getFirst().getSubjectX500Principal().getName()
                            + "): give the key that certificate was issued for."));
    List<X509Certificate> ordered = new ArrayList<>(chain);
    ordered.remove(own);
    ordered.addFirst(own);
    return new TlsIdentity(key, ordered);
  }

  private static TlsIdentity pkcs12(byte[] content, Path file, char[] password) {
    char[] secret = password == null ? new char[0] : password;
    KeyStore store;
    try {
      store = KeyStore.getInstance("PKCS12");
      store.load(new ByteArrayInputStream(content), secret);
    } catch (IOException e) {
      if (e.getCause() instanceof UnrecoverableKeyException) {
        throw new CertificateFileException(
            Part.PASSWORD,
            "the PKCS#12 file '"
                + file
                + "' cannot be opened with "
                + (secret.length == 0
                    ? "an empty password: give its password."
                    : "the password given."),
            e);
      }
      throw new CertificateFileException(
          Part.CERTIFICATE,
          "'" + file + "' is neither PEM text nor a PKCS#12 (.pfx) file: " + e.getMessage() + ".",
          e);
    } catch (GeneralSecurityException e) {
      throw new CertificateFileException(
          Part.CERTIFICATE, "the PKCS#12 file '" + file + "' cannot be read: " + e + ".", e);
    }
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (!store.isKeyEntry(alias)) {
          continue;
        }
        Key key = store.getKey(alias, secret);
        Certificate[] chain = store.getCertificateChain(alias);
        if (key instanceof PrivateKey privateKey && chain != null && chain.length > 0) {
          List<X509Certificate> certificates =
              Arrays.stream(chain).map(X509Certificate.class::cast).toList();
          return identity(privateKey, certificates, file, file);
        }
      }
    } catch (UnrecoverableKeyException e) {
      throw new CertificateFileException(
          Part.PASSWORD,
          "the key inside the PKCS#12 file '"
              + file
              + "' has a password other than the file's: export it with one password.",
          e);
    } catch (GeneralSecurityException | ClassCastException e) {
      throw new CertificateFileException(
          Part.CERTIFICATE, "the PKCS#12 file '" + file + "' cannot be read: " + e + ".", e);
    }
    throw new CertificateFileException(
        Part.CERTIFICATE,
        "the PKCS#12 file '" + file + "' holds no private key with its certificate.");
  }

  private static byte[] read(Path file, Part part) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new CertificateFileException(part, "'" + file + "' does not exist.", e);
    } catch (AccessDeniedException e) {
      throw new CertificateFileException(
          part,
          "'"
              + file
              + "' cannot be read: permission denied for user '"
              + System.getProperty("user.name")
              + "'.",
          e);
    } catch (IOException e) {
      throw new CertificateFileException(
          part, "'" + file + "' cannot be read: " + e.getMessage() + ".", e);
    }
  }
}
