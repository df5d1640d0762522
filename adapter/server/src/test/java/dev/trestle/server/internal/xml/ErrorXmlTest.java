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

  /**
   * As Azure answers six signed identifiers (the Python SDK's recording
   * test_set_table_acl_too_many_ids).
   */
  @Test
  void theTableServicesOwnErrorsAreODataXml() {
    assertThat(
            ErrorXml.write(
                "InvalidXmlDocument",
                "XML specified is not syntactically valid.\nRequestId:1",
                null))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><m:error"
                + " xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\">"
                + "<m:code>InvalidXmlDocument</m:code><m:message xml:lang=\"en-US\">XML specified is not"
                + " syntactically valid.\nRequestId:1</m:message></m:error>");
  }

  @Test
  void authorizationFailuresKeepTheFrontEndsShape() {
    assertThat(ErrorXml.write("AuthorizationPermissionMismatch", "No.", null))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthorizationPermissionMismatch"
                + "</Code><Message>No.</Message></Error>");
  }
}
