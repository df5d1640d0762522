package dev.trestle.server;

import dev.trestle.server.internal.tls.CertificateFileException;
import dev.trestle.server.internal.tls.CertificateFiles;
import dev.trestle.server.internal.tls.TlsIdentity;
import java.nio.file.Path;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The certificate chain and private key the server presents over HTTPS ({@link
 * TrestleServer.Builder#tls}). Read and checked at once: the files exist and parse, and the key
 * matches the certificate, else {@link InvalidCertificateException}.
 */
public final class ServerCertificate {
  private final TlsIdentity identity;

  private ServerCertificate(TlsIdentity identity) {
    this.identity = identity;
  }

  /**
   * A PEM certificate (with its chain) and a PEM private key: PKCS#8, or OpenSSL's RSA and EC
   * forms.
   *
   * @param keyPassword the key's password when it is encrypted, else null
   */
  public static ServerCertificate fromPem(Path certificate, Path privateKey, char[] keyPassword) {
    return read(
        certificate, java.util.Objects.requireNonNull(privateKey, "privateKey"), keyPassword);
  }

  /** A PKCS#12 ({@code .pfx}, {@code .p12}) file with its password (null or empty for none). */
  public static ServerCertificate fromPkcs12(Path file, char[] password) {
    return read(file, null, password);
  }

  /**
   * As Azurite's {@code --cert}, {@code --key} and {@code --pwd}: with a key file, a PEM
   * certificate and key; without one, a PKCS#12 file or a PEM file holding both.
   *
   * @param privateKey the PEM key file, or null
   * @param password the PKCS#12 password or the encrypted key's, or null
   */
  public static ServerCertificate read(Path certificate, Path privateKey, char[] password) {
    try {
      return new ServerCertificate(CertificateFiles.read(certificate, privateKey, password));
    } catch (CertificateFileException e) {
      throw new InvalidCertificateException(
          InvalidCertificateException.Part.valueOf(e.part().name()), e.getMessage(), e);
    }
  }

  /** The server's own certificate, first of the chain. */
  public X509Certificate certificate() {
    return identity.certificate();
  }

  /** The certificate chain as presented, the server's certificate first. */
  public List<X509Certificate> chain() {
    return identity.chain();
  }

  /**
   * The DNS names and IP addresses the certificate is valid for (its subject alternative names),
   * e.g. {@code localhost}, {@code *.table.corp.example}, {@code 127.0.0.1}.
   */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    try {
      Collection<List<?>> alternatives = certificate().getSubjectAlternativeNames();
      if (alternatives != null) {
        for (List<?> entry : alternatives) {
          int type = (Integer) entry.get(0);
          if (type == 2 || type == 7) { // dNSName, iPAddress
            names.add(String.valueOf(entry.get(1)));
          }
        }
      }
    } catch (CertificateParsingException e) {
      // no readable names: the list stays empty
    }
    return List.copyOf(names);
  }

  TlsIdentity identity() {
    return identity;
  }
}
