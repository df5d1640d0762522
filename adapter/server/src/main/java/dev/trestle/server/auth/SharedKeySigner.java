package dev.trestle.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Shared Key signatures as the storage services compute them (HMAC-SHA256 of a string to sign, with
 * the account key): the one signer of the server's verifiers, the CLI's client and the tests. Each
 * signature uses a clone of one initialised Mac: cloning skips the provider lookup and key setup,
 * and works on virtual threads, where a ThreadLocal would be created anew for nearly every request.
 * The prototype itself is only ever read.
 */
public final class SharedKeySigner {
  private static final String ALGORITHM = "HmacSHA256";

  private final byte[] key;
  private final Mac prototype;

  public SharedKeySigner(byte[] key) {
    this.key = key.clone();
    this.prototype = newMac(this.key);
  }

  /**
   * @throws IllegalArgumentException when {@code base64Key} is not base64
   */
  public static SharedKeySigner ofBase64(String base64Key) {
    return new SharedKeySigner(Base64.getDecoder().decode(base64Key));
  }

  /**
   * The Table service's Shared Key string to sign: no canonicalized x-ms headers; {@code date} is
   * the {@code x-ms-date} (else {@code Date}) header; null parts are empty lines.
   */
  public static String stringToSign(
      String method,
      String contentMd5,
      String contentType,
      String date,
      String canonicalizedResource) {
    return method
        + "\n"
        + nullToEmpty(contentMd5)
        + "\n"
        + nullToEmpty(contentType)
        + "\n"
        + date
        + "\n"
        + canonicalizedResource;
  }

  /**
   * The Shared Key Lite string to sign of the Table service: the date and the canonicalized
   * resource.
   */
  public static String liteStringToSign(String date, String canonicalizedResource) {
    return date + "\n" + canonicalizedResource;
  }

  public byte[] sign(String stringToSign) {
    Mac mac;
    try {
      mac = (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      mac = newMac(key);
    }
    return mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8));
  }

  /** The signature as the {@code Authorization} header and a SAS {@code sig} carry it. */
  public String signBase64(String stringToSign) {
    return Base64.getEncoder().encodeToString(sign(stringToSign));
  }

  private static Mac newMac(byte[] key) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(ALGORITHM + " is not available in this JDK", e);
    }
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
