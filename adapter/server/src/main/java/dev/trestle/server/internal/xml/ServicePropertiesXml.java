package dev.trestle.server.internal.xml;

import dev.trestle.server.internal.cors.CorsRule;
import dev.trestle.server.internal.xml.ServiceProperties.Logging;
import dev.trestle.server.internal.xml.ServiceProperties.Metrics;
import dev.trestle.server.internal.xml.ServiceProperties.RetentionPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * The {@code StorageServiceProperties} document of Get/Set Table Service Properties. Parsing keeps
 * absent top-level elements null (the stored value stays); an empty {@code <Cors/>} removes all
 * rules.
 */
public final class ServicePropertiesXml {
  /** The service's limit on CORS rules. */
  public static final int MAX_CORS_RULES = 5;

  private static final Set<String> CORS_METHODS =
      Set.of("DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH");
  private static final int MAX_LITERAL_HEADERS = 64;
  private static final int MAX_PREFIXED_HEADERS = 2;
  private static final int MAX_ORIGIN_LENGTH = 256;

  private ServicePropertiesXml() {}

  /**
   * Reads a Set Table Service Properties body.
   *
   * @throws dev.trestle.TableException {@code InvalidXmlDocument} when malformed, with more than
   *     five CORS rules or retention days out of 1 to 365, {@code InvalidXmlNodeValue} for another
   *     value out of range (CORS method, an origin over 256 characters, max age)
   */
  public static ServiceProperties parse(byte[] body) {
    Element root = SafeXml.parse(body).getDocumentElement();
    if (!root.getTagName().equals("StorageServiceProperties")) {
      throw SafeXml.invalidDocument();
    }
    Element logging = XmlElements.child(root, "Logging");
    Element hour = XmlElements.child(root, "HourMetrics");
    Element minute = XmlElements.child(root, "MinuteMetrics");
    Element cors = XmlElements.child(root, "Cors");
    return new ServiceProperties(
        logging == null ? null : logging(logging),
        hour == null ? null : metrics(hour),
        minute == null ? null : metrics(minute),
        cors == null ? null : cors(cors));
  }

  private static Logging logging(Element element) {
    return new Logging(
        version(element),
        flag(element, "Delete"),
        flag(element, "Read"),
        flag(element, "Write"),
        retention(element));
  }

  private static Metrics metrics(Element element) {
    boolean enabled = flag(element, "Enabled");
    Boolean includeApis = XmlElements.bool(element, "IncludeAPIs");
    return new Metrics(
        version(element),
        enabled,
        enabled ? Boolean.TRUE.equals(includeApis) : null,
        retention(element));
  }

  private static String version(Element element) {
    String version = XmlElements.text(element, "Version");
    return version == null || version.isEmpty() ? "1.0" : version;
  }

  private static boolean flag(Element element, String name) {
    return Boolean.TRUE.equals(XmlElements.bool(element, name));
  }

  private static RetentionPolicy retention(Element parent) {
    Element element = XmlElements.child(parent, "RetentionPolicy");
    if (element == null || !flag(element, "Enabled")) {
      return RetentionPolicy.DISABLED;
    }
    Integer days = XmlElements.integer(element, "Days");
    if (days == null || days < 1 || days > 365) {
      // what Azure answers a retention of 366 days (recorded), not InvalidXmlNodeValue
      throw SafeXml.invalidDocument();
    }
    return new RetentionPolicy(true, days);
  }

  private static List<CorsRule> cors(Element element) {
    List<CorsRule> rules = new ArrayList<>();
    for (Element rule : XmlElements.children(element)) {
      if (!rule.getTagName().equals("CorsRule") || rules.size() == MAX_CORS_RULES) {
        throw SafeXml.invalidDocument();
      }
      rules.add(corsRule(rule));
    }
    return rules;
  }

  private static CorsRule corsRule(Element element) {
    String origins = XmlElements.text(element, "AllowedOrigins");
    String methods = XmlElements.text(element, "AllowedMethods");
    Integer maxAge = XmlElements.integer(element, "MaxAgeInSeconds");
    if (origins == null || methods == null || maxAge == null) {
      throw SafeXml.invalidDocument();
    }
    CorsRule rule =
        CorsRule.of(
            origins,
            methods,
            XmlElements.text(element, "AllowedHeaders"),
            XmlElements.text(element, "ExposedHeaders"),
            maxAge);
    if (rule.allowedOrigins().isEmpty()
        || rule.allowedOrigins().stream().anyMatch(o -> o.length() > MAX_ORIGIN_LENGTH)) {
      throw SafeXml.invalidNodeValue("AllowedOrigins");
    }
    if (rule.allowedMethods().isEmpty() || !CORS_METHODS.containsAll(rule.allowedMethods())) {
      throw SafeXml.invalidNodeValue("AllowedMethods");
    }
    if (maxAge < 0) {
      throw SafeXml.invalidNodeValue("MaxAgeInSeconds");
    }
    checkHeaderLimits("AllowedHeaders", rule.allowedHeaders());
    checkHeaderLimits("ExposedHeaders", rule.exposedHeaders());
    return rule;
  }

  private static void checkHeaderLimits(String node, List<String> headers) {
    long prefixed = headers.stream().filter(h -> h.endsWith("*")).count();
    if (prefixed > MAX_PREFIXED_HEADERS || headers.size() - prefixed > MAX_LITERAL_HEADERS) {
      throw SafeXml.invalidNodeValue(node);
    }
  }

  /**
   * The Get Table Service Properties body; every component of {@code properties} must be present.
   */
  public static String write(ServiceProperties properties) {
    XmlText xml = new XmlText().open("StorageServiceProperties");
    Logging logging = properties.logging();
    xml.open("Logging")
        .element("Version", logging.version())
        .element("Delete", logging.delete())
        .element("Read", logging.read())
        .element("Write", logging.write());
    retention(xml, logging.retentionPolicy());
    xml.close("Logging");
    metrics(xml, "HourMetrics", properties.hourMetrics());
    metrics(xml, "MinuteMetrics", properties.minuteMetrics());
    xml.open("Cors");
    for (CorsRule rule : properties.cors()) {
      xml.open("CorsRule")
          .element("AllowedMethods", String.join(",", rule.allowedMethods()))
          .element("AllowedOrigins", String.join(",", rule.allowedOrigins()))
          .element("AllowedHeaders", String.join(",", rule.allowedHeaders()))
          .element("ExposedHeaders", String.join(",", rule.exposedHeaders()))
          .element("MaxAgeInSeconds", rule.maxAgeInSeconds())
          .close("CorsRule");
    }
    return xml.close("Cors").close("StorageServiceProperties").toString();
  }

  private static void metrics(XmlText xml, String name, Metrics metrics) {
    xml.open(name).element("Version", metrics.version()).element("Enabled", metrics.enabled());
    if (metrics.enabled()) {
      xml.element("IncludeAPIs", Boolean.TRUE.equals(metrics.includeApis()));
    }
    retention(xml, metrics.retentionPolicy());
    xml.close(name);
  }

  private static void retention(XmlText xml, RetentionPolicy policy) {
    xml.open("RetentionPolicy").element("Enabled", policy.enabled());
    if (policy.enabled()) {
      xml.element("Days", policy.days());
    }
    xml.close("RetentionPolicy");
  }
}
