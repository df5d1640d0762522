package dev.trestle.server.internal.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A private key with its certificate chain, the server's certificate first: what a TLS server
 * presents. Built only by {@link CertificateFiles}, which checks that the key matches.
 */
public record TlsIdentity(PrivateKey key, List<X509Certificate> chain) {
  public TlsIdentity {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a TLS identity needs at least one certificate");
    }
  }

  public X509Certificate certificate() {
    return chain.getFirst();
  }
}
