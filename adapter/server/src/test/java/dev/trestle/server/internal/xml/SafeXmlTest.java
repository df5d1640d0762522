package dev.trestle.server.internal.xml;

import static dev.trestle.server.internal.xml.XmlAssertions.utf8;
import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class SafeXmlTest {

  @Test
  void externalEntityIsRefusedAndTheFileNeverRead(@TempDir Path dir) throws Exception {
    Path secret = dir.resolve("secret.txt");
    Files.writeString(secret, "TOP-SECRET");
    String xml =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \""
            + secret.toUri()
            + "\">]>"
            + "<SignedIdentifiers><SignedIdentifier><Id>&x;</Id></SignedIdentifier></SignedIdentifiers>";

    assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> SafeXml.parse(utf8(xml)));
    assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> AccessPolicyXml.parse(utf8(xml)));
  }

  @Test
  void entityExpansionBombIsRefused() {
    StringBuilder xml =
        new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    for (int i = 1; i < 10; i++) {
      xml.append("<!ENTITY lol")
          .append(i)
          .append(" \"")
          .append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10))
          .append("\">");
    }
    xml.append(
        "]><StorageServiceProperties><Logging><Version>&lol9;</Version></Logging></StorageServiceProperties>");

    assertFails(
        TableErrorCode.INVALID_XML_DOCUMENT,
        () -> ServicePropertiesXml.parse(utf8(xml.toString())));
  }

  @Test
  void externalDtdIsRefused() {
    String xml = "<?xml version=\"1.0\"?><!DOCTYPE r SYSTEM \"http://127.0.0.1:9/evil.dtd\"><r/>";
    assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> SafeXml.parse(utf8(xml)));
  }

  @Test
  void xincludeIsNotProcessed() {
    String xml =
        "<r xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"file:///etc/passwd\" "
            + "parse=\"text\"/></r>";
    Document document = SafeXml.parse(utf8(xml));
    assertThat(document.getDocumentElement().getTextContent()).isEmpty();
  }

  @Test
  void wellFormedDocumentParsesWithItsDeclaredEncoding() {
    byte[] latin1 =
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>\u00e9</r>"
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertThat(SafeXml.parse(latin1).getDocumentElement().getTextContent()).isEqualTo("\u00e9");
  }

  @Test
  void garbageIsInvalidXml() {
    for (String body : new String[] {"", "{\"json\":true}", "<a><b></a>", "<a/><b/>"}) {
      assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> SafeXml.parse(utf8(body)));
    }
  }
}
