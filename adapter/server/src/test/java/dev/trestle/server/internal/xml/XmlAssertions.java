package dev.trestle.server.internal.xml;

import java.nio.charset.StandardCharsets;

final class XmlAssertions {
  private XmlAssertions() {}

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
