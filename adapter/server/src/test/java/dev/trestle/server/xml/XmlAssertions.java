package dev.trestle.server.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

final class XmlAssertions {
  private XmlAssertions() {}

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static void assertFails(ThrowingCallable call, TableErrorCode code) {
    assertThatThrownBy(call).isInstanceOfSatisfying(TableException.class, e -> {
      assertThat(e.errorCode()).isEqualTo(code);
      assertThat(e.status()).isEqualTo(400);
    });
  }
}
