package dev.trestle.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SharedKeySignerTest {
  private static final byte[] KEY =
      Base64.getDecoder()
          .decode(
              "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");

  @Test
  void signsLikeAFreshMacEveryTimeItIsUsed() {
    SharedKeySigner key = new SharedKeySigner(KEY);
    for (String text :
        new String[] {
          "", "GET\n\n\nMon, 23 Nov 2026 13:00:00 GMT\n/a/a/Tables", "é✓", "x".repeat(5000)
        }) {
      assertThat(key.sign(text)).isEqualTo(freshMac(KEY, text));
      assertThat(key.sign(text)).isEqualTo(freshMac(KEY, text));
    }
  }

  @Test
  void doesNotShareTheCallersArray() {
    byte[] bytes = KEY.clone();
    SharedKeySigner key = new SharedKeySigner(bytes);
    bytes[0] ^= 1;
    assertThat(key.sign("s")).isEqualTo(freshMac(KEY, "s"));
  }

  @Test
  void matchesTheRfc4231TestVector() {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
    SharedKeySigner signer = new SharedKeySigner("Jefe".getBytes(StandardCharsets.US_ASCII));
    assertThat(HexFormat.of().formatHex(signer.sign("what do ya want for nothing?")))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    assertThat(
            SharedKeySigner.ofBase64(
                    Base64.getEncoder().encodeToString("Jefe".getBytes(StandardCharsets.US_ASCII)))
                .signBase64("what do ya want for nothing?"))
        .isEqualTo(
            Base64.getEncoder()
                .encodeToString(
                    HexFormat.of()
                        .parseHex(
                            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")));
  }

  @Test
  void buildsTheTableServiceStringsToSign() {
    assertThat(
            SharedKeySigner.stringToSign(
                "PUT", null, "application/json", "Mon, 23 Nov 2026 13:00:00 GMT", "/a/a/t"))
        .isEqualTo("PUT\n\napplication/json\nMon, 23 Nov 2026 13:00:00 GMT\n/a/a/t");
    assertThat(SharedKeySigner.liteStringToSign("Mon, 23 Nov 2026 13:00:00 GMT", "/a/a/t"))
        .isEqualTo("Mon, 23 Nov 2026 13:00:00 GMT\n/a/a/t");
  }

  /** The reference: a Mac set up from scratch for one signature. */
  private static byte[] freshMac(byte[] key, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
