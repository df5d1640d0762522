package dev.trestle.server.auth.internal;

import dev.trestle.server.auth.SharedKeySigner;

/**
 * Signs with the product's {@link SharedKeySigner}, which {@code SharedKeySignerTest} pins to RFC
 * 4231.
 */
final class TestSigner {
  private TestSigner() {}

  static String sign(String base64Key, String stringToSign) {
    return SharedKeySigner.ofBase64(base64Key).signBase64(stringToSign);
  }
}
