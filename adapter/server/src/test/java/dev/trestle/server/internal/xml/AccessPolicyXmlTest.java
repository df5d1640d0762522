package dev.trestle.server.internal.xml;

import static dev.trestle.server.internal.xml.XmlAssertions.utf8;
import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.implementation.models.TableSignedIdentifierWrapper;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.xml.XmlReader;
import dev.trestle.AccessPolicy;
import dev.trestle.TableErrorCode;
import dev.trestle.server.auth.internal.SdkCapture;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AccessPolicyXmlTest {
  static final String SAMPLE =
      """
      <?xml version="1.0" encoding="utf-8"?>
      <SignedIdentifiers>
        <SignedIdentifier>
          <Id>MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=</Id>
          <AccessPolicy>
            <Start>2021-09-21T08:49:37.0000000Z</Start>
            <Expiry>2021-09-22T08:49:37.0000000Z</Expiry>
            <Permission>raud</Permission>
          </AccessPolicy>
        </SignedIdentifier>
        <SignedIdentifier><Id>bare</Id></SignedIdentifier>
      </SignedIdentifiers>""";

  static String document(int count) {
    StringBuilder xml = new StringBuilder("<SignedIdentifiers>");
    for (int i = 0; i < count; i++) {
      xml.append("<SignedIdentifier><Id>id")
          .append(i)
          .append("</Id><AccessPolicy><Permission>r</Permission>")
          .append("</AccessPolicy></SignedIdentifier>");
    }
    return xml.append("</SignedIdentifiers>").toString();
  }

  @Test
  void readsTheDocumentedShape() {
    assertThat(AccessPolicyXml.parse(utf8(SAMPLE)))
        .containsExactly(
            new AccessPolicy(
                "MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=",
                Instant.parse("2021-09-21T08:49:37Z"),
                Instant.parse("2021-09-22T08:49:37Z"),
                "raud"),
            new AccessPolicy("bare", null, null, null));
  }

  @Test
  void writesWithSevenFractionalDigitsAndReadsBack() {
    List<AccessPolicy> policies =
        List.of(
            new AccessPolicy(
                "a",
                Instant.parse("2030-01-02T03:04:05.1234567Z"),
                Instant.parse("2030-02-01T00:00:00Z"),
                "ru"),
            new AccessPolicy("b", null, Instant.parse("2031-01-01T00:00:00Z"), null),
            new AccessPolicy("<&'\">", null, null, "d"));
    String xml = AccessPolicyXml.write(policies);

    assertThat(xml)
        .startsWith(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers><SignedIdentifier>"
                + "<Id>a</Id><AccessPolicy><Start>2030-01-02T03:04:05.1234567Z</Start>"
                + "<Expiry>2030-02-01T00:00:00.0000000Z</Expiry><Permission>ru</Permission></AccessPolicy></SignedIdentifier>");
    assertThat(AccessPolicyXml.parse(utf8(xml))).isEqualTo(policies);
  }

  /** As Azure answers (the Python SDK's recording of a signed identifier without a policy). */
  @Test
  void anIdentifierWithoutAPolicyIsWrittenWithoutAnAccessPolicy() {
    List<AccessPolicy> policies =
        List.of(new AccessPolicy("null", null, null, null), new AccessPolicy("r", null, null, "r"));
    String xml = AccessPolicyXml.write(policies);
    assertThat(xml)
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers>"
                + "<SignedIdentifier><Id>null</Id></SignedIdentifier>"
                + "<SignedIdentifier><Id>r</Id><AccessPolicy><Permission>r</Permission></AccessPolicy>"
                + "</SignedIdentifier></SignedIdentifiers>");
    assertThat(AccessPolicyXml.parse(utf8(xml))).isEqualTo(policies);
  }

  @Test
  void noPoliciesIsAnEmptyElementAndAnEmptyBodyClears() {
    assertThat(AccessPolicyXml.write(List.of()))
        .isEqualTo("<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers />");
    assertThat(AccessPolicyXml.parse(utf8("<SignedIdentifiers />"))).isEmpty();
    assertThat(AccessPolicyXml.parse(new byte[0])).isEmpty();
    assertThat(AccessPolicyXml.parse(utf8("  \n"))).isEmpty();
    assertThat(AccessPolicyXml.parse(null)).isEmpty();
  }

  @Test
  void fivePoliciesAreTheLimit() {
    assertThat(AccessPolicyXml.parse(utf8(document(5)))).hasSize(5);
    assertFails(
        TableErrorCode.INVALID_XML_DOCUMENT, () -> AccessPolicyXml.parse(utf8(document(6))));
  }

  @Test
  void malformedDocumentsAreInvalidXml() {
    for (String xml :
        List.of(
            "<SignedIdentifiers>",
            "not xml at all",
            "<Other/>",
            "<SignedIdentifiers><Unknown/></SignedIdentifiers>",
            "<SignedIdentifiers><SignedIdentifier><AccessPolicy/></SignedIdentifier></SignedIdentifiers>",
            "<SignedIdentifiers><SignedIdentifier><Id></Id></SignedIdentifier></SignedIdentifiers>",
            "<SignedIdentifiers><SignedIdentifier><Id>a</Id><Id>b</Id></SignedIdentifier></SignedIdentifiers>",
            "<SignedIdentifiers><SignedIdentifier><Id>a</Id></SignedIdentifier>"
                + "<SignedIdentifier><Id>a</Id></SignedIdentifier></SignedIdentifiers>")) {
      assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> AccessPolicyXml.parse(utf8(xml)));
    }
  }

  @Test
  void idIsAtMost64Characters() {
    String id64 = "x".repeat(64);
    assertThat(AccessPolicyXml.parse(utf8(identifier(id64, ""))).get(0).id()).isEqualTo(id64);
    assertFails(
        TableErrorCode.INVALID_XML_NODE_VALUE,
        () -> AccessPolicyXml.parse(utf8(identifier(id64 + "x", ""))));
  }

  @Test
  void badValuesAreInvalidNodeValues() {
    for (String policy :
        List.of(
            "<Permission>rw</Permission>",
            "<Start>yesterday</Start>",
            "<Expiry>2030-13-01T00:00:00Z</Expiry>")) {
      assertFails(
          TableErrorCode.INVALID_XML_NODE_VALUE,
          () -> AccessPolicyXml.parse(utf8(identifier("id", policy))));
    }
  }

  @Test
  void timesInOtherIsoFormsAreRead() {
    AccessPolicy policy =
        AccessPolicyXml.parse(
                utf8(
                    identifier(
                        "id",
                        "<Start>2030-01-01</Start><Expiry>2030-01-02T01:00:00+01:00</Expiry>")))
            .get(0);
    assertThat(policy.start()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    assertThat(policy.expiry()).isEqualTo(Instant.parse("2030-01-02T00:00:00Z"));
  }

  static String identifier(String id, String policy) {
    return "<SignedIdentifiers><SignedIdentifier><Id>"
        + id
        + "</Id><AccessPolicy>"
        + policy
        + "</AccessPolicy></SignedIdentifier></SignedIdentifiers>";
  }

  @Test
  void theJavaSdkReadsWhatWeWrite() throws Exception {
    String xml =
        AccessPolicyXml.write(
            List.of(
                new AccessPolicy(
                    "full",
                    Instant.parse("2030-01-02T03:04:05Z"),
                    Instant.parse("2030-02-01T00:00:00Z"),
                    "raud"),
                new AccessPolicy("bare", null, null, null)));

    List<TableSignedIdentifier> read =
        TableSignedIdentifierWrapper.fromXml(XmlReader.fromString(xml)).items();
    assertThat(read).hasSize(2);
    assertThat(read.get(0).getId()).isEqualTo("full");
    assertThat(read.get(0).getAccessPolicy().getStartsOn())
        .isEqualTo(OffsetDateTime.parse("2030-01-02T03:04:05Z"));
    assertThat(read.get(0).getAccessPolicy().getExpiresOn())
        .isEqualTo(OffsetDateTime.parse("2030-02-01T00:00:00Z"));
    assertThat(read.get(0).getAccessPolicy().getPermissions()).isEqualTo("raud");
    assertThat(read.get(1).getId()).isEqualTo("bare");
  }

  @Test
  void weReadWhatTheJavaSdkSends() {
    SdkCapture capture = new SdkCapture();
    TableClient client =
        new TableClientBuilder()
            .endpoint("http://127.0.0.1:10002/devstoreaccount1")
            .tableName("orders")
            .httpClient(capture)
            .credential(new AzureNamedKeyCredential("devstoreaccount1", "a2V5"))
            .buildClient();
    List<TableSignedIdentifier> identifiers = new ArrayList<>();
    IntStream.range(0, 2)
        .forEach(
            i ->
                identifiers.add(
                    new TableSignedIdentifier("id" + i)
                        .setAccessPolicy(
                            new TableAccessPolicy()
                                .setPermissions("ra")
                                .setStartsOn(OffsetDateTime.parse("2030-01-01T00:00:00Z"))
                                .setExpiresOn(
                                    OffsetDateTime.parse("2030-01-0" + (i + 2) + "T00:00:00Z")))));
    identifiers.add(new TableSignedIdentifier("nopolicy"));

    byte[] body = capture.captureBody(() -> client.setAccessPolicies(identifiers));

    assertThat(AccessPolicyXml.parse(body))
        .containsExactly(
            new AccessPolicy(
                "id0",
                Instant.parse("2030-01-01T00:00:00Z"),
                Instant.parse("2030-01-02T00:00:00Z"),
                "ra"),
            new AccessPolicy(
                "id1",
                Instant.parse("2030-01-01T00:00:00Z"),
                Instant.parse("2030-01-03T00:00:00Z"),
                "ra"),
            new AccessPolicy("nopolicy", null, null, null));
  }
}
