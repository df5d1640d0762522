package dev.trestle.server.internal.xml;

import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** Reading helpers over a parsed DOM: child elements by name, their trimmed text, typed values. */
final class XmlElements {
  private XmlElements() {}

  static List<Element> children(Element parent) {
    List<Element> elements = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE) {
        elements.add((Element) nodes.item(i));
      }
    }
    return elements;
  }

  /** The one child of that name, or null; a repeated child makes the document invalid. */
  static Element child(Element parent, String name) {
    Element found = null;
    for (Element child : children(parent)) {
      if (child.getTagName().equals(name)) {
        if (found != null) {
          throw SafeXml.invalidDocument();
        }
        found = child;
      }
    }
    return found;
  }

  /** Trimmed text of the named child; null when the child is absent. */
  static String text(Element parent, String name) {
    Element child = child(parent, name);
    return child == null ? null : child.getTextContent().trim();
  }

  static Boolean bool(Element parent, String name) {
    String text = text(parent, name);
    if (text == null) {
      return null;
    }
    return switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw SafeXml.invalidNodeValue(name);
    };
  }

  static Integer integer(Element parent, String name) {
    String text = text(parent, name);
    if (text == null) {
      return null;
    }
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw SafeXml.invalidNodeValue(name);
    }
  }
}
