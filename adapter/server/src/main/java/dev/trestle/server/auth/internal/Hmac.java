package dev.trestle.server.auth.internal;

import java.security.MessageDigest;
import java.util.Base64;

/**
 * A client's HMAC signature, decoded and compared in constant time; {@code SharedKeySigner}
 * computes ours.
 */
public final class Hmac {
  private Hmac() {}

  /**
   * Decodes a client's base64 signature; null when it is not base64 (it then matches nothing). A
   * space is read as '+', because an unencoded '+' in a query string arrives decoded as a space.
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

  /**
   * Constant-time comparison, so response timing reveals nothing about how much of a signature was
   * right.
   */
  public static boolean matches(byte[] provided, byte[] expected) {
    return provided != null && MessageDigest.isEqual(provided, expected);
  }
}
