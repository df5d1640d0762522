package dev.trestle.server.auth.internal;

import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;

/**
 * One account key with an HMAC-SHA256 already initialised for it. Every request signs with a clone of that
 * prototype: cloning skips the provider lookup and key setup, and works on virtual threads, where a ThreadLocal
 * would be created anew for nearly every request. The prototype itself is only ever read.
 */
public final class SigningKey {
  private final byte[] key;
  private final Mac prototype;

  SigningKey(byte[] key) {
    this.key = key.clone();
    this.prototype = Hmac.newMac(this.key);
  }

  public byte[] sign(String stringToSign) {
    Mac mac;
    try {
      mac = (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      mac = Hmac.newMac(key);
    }
    return mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8));
  }

}
