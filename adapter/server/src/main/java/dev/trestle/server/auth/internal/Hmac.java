package dev.trestle.server.auth.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 signatures as the storage services compute them, compared in constant time. */
public final class Hmac {
  private Hmac() {}

  public static byte[] sign(byte[] key, String stringToSign) {
    return newMac(key).doFinal(stringToSign.getBytes(StandardCharsets.UTF_8));
  }

  static Mac newMac(byte[] key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
    }
  }

  public static String signBase64(byte[] key, String stringToSign) {
    return Base64.getEncoder().encodeToString(sign(key, stringToSign));
  }

  /**
   * Decodes a client's base64 signature; null when it is not base64 (it then matches nothing). A space is
   * read as '+', because an unencoded '+' in a query string arrives decoded as a space.
   */
  public static byte[] decodeSignature(String base64) {
    if (base64 == null || base64.isEmpty()) {
      return null;
    }
    try {
      return Base64.getDecoder().decode(base64.replace(' ', '+'));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Constant-time comparison, so response timing reveals nothing about how much of a signature was right. */
  public static boolean matches(byte[] provided, byte[] expected) {
    return provided != null && MessageDigest.isEqual(provided, expected);
  }
}
