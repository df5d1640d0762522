package dev.trestle.server.internal.xml;

import static dev.trestle.server.internal.xml.XmlAssertions.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class ErrorXmlTest {

  @Test
  void authenticationFailureCarriesItsDetail() {
    String xml =
        ErrorXml.write(
            "AuthenticationFailed", "Server failed.\nRequestId:1\nTime:2021", "sig <'a'> & b");

    Element root = SafeXml.parse(utf8(xml)).getDocumentElement();
    assertThat(root.getTagName()).isEqualTo("Error");
    assertThat(XmlElements.text(root, "Code")).isEqualTo("AuthenticationFailed");
    assertThat(root.getElementsByTagName("Message").item(0).getTextContent())
        .isEqualTo("Server failed.\nRequestId:1\nTime:2021");
    assertThat(XmlElements.text(root, "AuthenticationErrorDetail")).isEqualTo("sig <'a'> & b");
  }

  @Test
  void otherErrorsHaveCodeAndMessageOnly() {
    assertThat(
            ErrorXml.write("InvalidXmlDocument", "XML specified is not syntactically valid.", null))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>InvalidXmlDocument</Code>"
                + "<Message>XML specified is not syntactically valid.</Message></Error>");
  }
}
