package dev.trestle.server.internal.tls;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.UUID;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty's TLS layer for a {@link TlsIdentity}: the JDK's TLS 1.2 and 1.3 with Jetty's exclusions of
 * weak protocols and cipher suites, and HTTP/1.1 inside (no ALPN, as the storage service).
 */
public final class TlsConnections {
  private static final String ALIAS = "trestle";

  private TlsConnections() {}

  /** Decrypts with the identity's key and hands the bytes to {@code nextProtocol}. */
  public static SslConnectionFactory sslConnectionFactory(
      TlsIdentity identity, String nextProtocol) {
    // an in-memory key store: the only way into Jetty's key managers; its password never leaves
    String password = UUID.randomUUID().toString();
    KeyStore store;
    try {
      store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(
          ALIAS,
          identity.key(),
          password.toCharArray(),
          identity.chain().toArray(Certificate[]::new));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("Cannot hold the TLS key in memory: " + e.getMessage(), e);
    }
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStore(store);
    tls.setKeyStorePassword(password);
    tls.setKeyManagerPassword(password);
    tls.setCertAlias(ALIAS);
    return new SslConnectionFactory(tls, nextProtocol);
  }

  /**
   * Marks requests secure (https scheme). The Host is not checked against the certificate's names:
   * the client checks the certificate, and host-style names ({@code account.localhost}) differ from
   * the name a client connected to by SNI.
   */
  public static SecureRequestCustomizer secureRequests() {
    SecureRequestCustomizer customizer = new SecureRequestCustomizer();
    customizer.setSniHostCheck(false);
    return customizer;
  }
}
