package dev.trestle.server.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class SigningKeyTest {
  private static final byte[] KEY = Base64.getDecoder().decode(
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");

  @Test
  void signsLikeAFreshMacEveryTimeItIsUsed() {
    SigningKey key = new SigningKey(KEY);
    for (String text : new String[] {"", "GET\n\n\nMon, 23 Nov 2026 13:00:00 GMT\n/a/a/Tables", "é✓", "x".repeat(5000)}) {
      assertThat(key.sign(text)).isEqualTo(Hmac.sign(KEY, text));
      assertThat(key.sign(text)).isEqualTo(Hmac.sign(KEY, text));
    }
  }

  @Test
  void doesNotShareTheCallersArray() {
    byte[] bytes = KEY.clone();
    SigningKey key = new SigningKey(bytes);
    bytes[0] ^= 1;
    assertThat(key.sign("s")).isEqualTo(Hmac.sign(KEY, "s"));
  }
}
