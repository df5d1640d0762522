package dev.trestle.server.internal.xml;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Parses request bodies with every XML feature that reaches outside the document switched off: no
 * DOCTYPE (so no entity expansion, XXE or billion-laughs), no external DTD or schema, no XInclude.
 * Anything that is not a well-formed document is 400 {@code InvalidXmlDocument}.
 */
public final class SafeXml {
  private static final ErrorHandler FAIL =
      new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) throws SAXException {
          throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
          throw e;
        }
      };

  private SafeXml() {}

  /**
   * The parsed document; throws {@code InvalidXmlDocument} for anything malformed, including a
   * DOCTYPE.
   */
  public static Document parse(byte[] body) {
    try {
      DocumentBuilder builder = factory().newDocumentBuilder();
      builder.setErrorHandler(FAIL);
      builder.setEntityResolver(
          (publicId, systemId) -> {
            throw new SAXException("External entities are not allowed");
          });
      return builder.parse(new ByteArrayInputStream(body));
    } catch (SAXException | IOException e) {
      throw invalidDocument();
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("The JDK's XML parser cannot be configured", e);
    }
  }

  static TableException invalidDocument() {
    return new TableException(
        TableErrorCode.INVALID_XML_DOCUMENT, "XML specified is not syntactically valid.");
  }

  static TableException invalidNodeValue(String node) {
    return new TableException(
        TableErrorCode.INVALID_XML_NODE_VALUE,
        "The value for one of the XML nodes is not in the correct format. Node: " + node);
  }

  /**
   * A new factory per parse: factories are not thread-safe, and these documents are small and rare.
   */
  private static DocumentBuilderFactory factory() {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    try {
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("The JDK's XML parser does not support secure processing", e);
    }
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    factory.setXIncludeAware(false);
    factory.setExpandEntityReferences(false);
    factory.setNamespaceAware(false);
    factory.setValidating(false);
    return factory;
  }
}
