package dev.trestle.server;

/**
 * A certificate, private key or password that cannot serve HTTPS: a file missing or unreadable, no
 * certificate or key in it, a key that does not match the certificate, a wrong password. The
 * message names the file and the fix; {@link #part()} says which of the three to change.
 */
public final class InvalidCertificateException extends IllegalArgumentException {

  /** What has to change. */
  public enum Part {
    /** The certificate file (PEM or PKCS#12). */
    CERTIFICATE,
    /** The private key file. */
    KEY,
    /** The PKCS#12 password, or the encrypted key's. */
    PASSWORD
  }

  private final Part part;

  InvalidCertificateException(Part part, String message, Throwable cause) {
    super(message, cause);
    this.part = part;
  }

  public Part part() {
    return part;
  }
}
