package dev.trestle.server.internal.tls;

/**
 * A certificate, key or password that cannot serve HTTPS, with the file (or password) at fault; the
 * message says what is wrong and how to fix it.
 */
public final class CertificateFileException extends RuntimeException {

  /** What the operator has to change. */
  public enum Part {
    CERTIFICATE,
    KEY,
    PASSWORD
  }

  private final Part part;

  CertificateFileException(Part part, String message) {
    this(part, message, null);
  }

  CertificateFileException(Part part, String message, Throwable cause) {
    super(message, cause);
    this.part = part;
  }

  public Part part() {
    return part;
  }
}
