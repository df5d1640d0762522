package dev.trestle.server.internal.xml;

/**
 * Builds the small XML documents the service returns, escaping text; elements in the order Azure
 * writes them.
 */
final class XmlText {
  static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";

  private final StringBuilder out = new StringBuilder(DECLARATION);

  XmlText open(String name) {
    out.append('<').append(name).append('>');
    return this;
  }

  XmlText close(String name) {
    out.append("</").append(name).append('>');
    return this;
  }

  XmlText empty(String name) {
    out.append('<').append(name).append(" />");
    return this;
  }

  /** Escaped text inside the element last opened. */
  XmlText text(String value) {
    escape(value);
    return this;
  }

  XmlText element(String name, Object value) {
    if (value != null) {
      open(name);
      escape(value.toString());
      close(name);
    }
    return this;
  }

  private void escape(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> out.append(c);
      }
    }
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
