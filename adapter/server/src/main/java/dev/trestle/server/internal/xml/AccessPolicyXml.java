package dev.trestle.server.internal.xml;

import dev.trestle.AccessPolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * The {@code SignedIdentifiers} document of Get/Set Table ACL. A table holds at most five policies,
 * each with an {@code Id} of at most 64 characters and optional {@code Start}, {@code Expiry} and
 * {@code Permission} (letters of {@code raud}).
 */
public final class AccessPolicyXml {
  /** The service's limit on stored access policies per table. */
  public static final int MAX_POLICIES = 5;

  static final int MAX_ID_LENGTH = 64;

  private AccessPolicyXml() {}

  /**
   * Reads a Set Table ACL body. An empty body, like an empty {@code <SignedIdentifiers/>}, means
   * "no policies".
   *
   * @throws dev.trestle.TableException {@code InvalidXmlDocument} when malformed or with more than
   *     five identifiers, {@code InvalidXmlNodeValue} for a bad id, time or permission
   */
  public static List<AccessPolicy> parse(byte[] body) {
    if (body == null || new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
      return List.of();
    }
    Element root = SafeXml.parse(body).getDocumentElement();
    if (!root.getTagName().equals("SignedIdentifiers")) {
      throw SafeXml.invalidDocument();
    }
    List<AccessPolicy> policies = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Element identifier : XmlElements.children(root)) {
      if (!identifier.getTagName().equals("SignedIdentifier") || policies.size() == MAX_POLICIES) {
        throw SafeXml.invalidDocument();
      }
      AccessPolicy policy = policy(identifier);
      if (!ids.add(policy.id())) {
        throw SafeXml.invalidDocument();
      }
      policies.add(policy);
    }
    return List.copyOf(policies);
  }

  private static AccessPolicy policy(Element identifier) {
    String id = XmlElements.text(identifier, "Id");
    if (id == null || id.isEmpty()) {
      throw SafeXml.invalidDocument();
    }
    if (id.length() > MAX_ID_LENGTH) {
      throw SafeXml.invalidNodeValue("Id");
    }
    Element policy = XmlElements.child(identifier, "AccessPolicy");
    if (policy == null) {
      return new AccessPolicy(id, null, null, null);
    }
    String permission = XmlElements.text(policy, "Permission");
    if (permission != null && !permission.chars().allMatch(c -> "raud".indexOf(c) >= 0)) {
      throw SafeXml.invalidNodeValue("Permission");
    }
    return new AccessPolicy(
        id,
        XmlTimes.parse("Start", XmlElements.text(policy, "Start")),
        XmlTimes.parse("Expiry", XmlElements.text(policy, "Expiry")),
        permission == null || permission.isEmpty() ? null : permission);
  }

  /**
   * The Get Table ACL body for these policies (an empty {@code <SignedIdentifiers />} for none, and
   * a {@code SignedIdentifier} of its {@code Id} alone for a policy that sets nothing).
   */
  public static String write(List<AccessPolicy> policies) {
    XmlText xml = new XmlText();
    if (policies.isEmpty()) {
      return xml.empty("SignedIdentifiers").toString();
    }
    xml.open("SignedIdentifiers");
    for (AccessPolicy policy : policies) {
      xml.open("SignedIdentifier").element("Id", policy.id());
      // an identifier without start, expiry or permissions has no AccessPolicy at all, as Azure
      // answers (an empty element reads as a policy of nulls in the SDKs, not as none)
      if (policy.start() != null
          || policy.expiry() != null
          || policy.permissions() != null && !policy.permissions().isEmpty()) {
        xml.open("AccessPolicy")
            .element("Start", policy.start() == null ? null : XmlTimes.format(policy.start()))
            .element("Expiry", policy.expiry() == null ? null : XmlTimes.format(policy.expiry()))
            .element("Permission", policy.permissions())
            .close("AccessPolicy");
      }
      xml.close("SignedIdentifier");
    }
    return xml.close("SignedIdentifiers").toString();
  }
}
