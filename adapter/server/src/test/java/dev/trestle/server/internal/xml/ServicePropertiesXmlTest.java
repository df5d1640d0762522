package dev.trestle.server.internal.xml;

import static dev.trestle.server.internal.xml.XmlAssertions.utf8;
import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceLogging;
import com.azure.data.tables.models.TableServiceMetrics;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableServiceRetentionPolicy;
import com.azure.xml.XmlReader;
import dev.trestle.TableErrorCode;
import dev.trestle.server.auth.internal.SdkCapture;
import dev.trestle.server.internal.cors.CorsRule;
import dev.trestle.server.internal.xml.ServiceProperties.Logging;
import dev.trestle.server.internal.xml.ServiceProperties.Metrics;
import dev.trestle.server.internal.xml.ServiceProperties.RetentionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServicePropertiesXmlTest {
  static final String SAMPLE =
      """
      <?xml version="1.0" encoding="utf-8"?>
      <StorageServiceProperties>
        <Logging><Version>1.0</Version><Delete>true</Delete><Read>false</Read><Write>true</Write>
          <RetentionPolicy><Enabled>true</Enabled><Days>30</Days></RetentionPolicy></Logging>
        <HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false</IncludeAPIs>
          <RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>
        <MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled>
          <RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>
        <Cors>
          <CorsRule>
            <AllowedOrigins>http://a.com, http://b.com</AllowedOrigins>
            <AllowedMethods>GET,PUT</AllowedMethods>
            <MaxAgeInSeconds>500</MaxAgeInSeconds>
            <ExposedHeaders>x-ms-meta-data*</ExposedHeaders>
            <AllowedHeaders>x-ms-meta-target*,content-type</AllowedHeaders>
          </CorsRule>
        </Cors>
      </StorageServiceProperties>""";

  static final ServiceProperties SAMPLE_PROPERTIES =
      new ServiceProperties(
          new Logging("1.0", true, false, true, new RetentionPolicy(true, 30)),
          new Metrics("1.0", true, false, new RetentionPolicy(true, 7)),
          new Metrics("1.0", false, null, RetentionPolicy.DISABLED),
          List.of(
              new CorsRule(
                  List.of("http://a.com", "http://b.com"),
                  List.of("GET", "PUT"),
                  List.of("x-ms-meta-target*", "content-type"),
                  List.of("x-ms-meta-data*"),
                  500)));

  @Test
  void readsTheDocumentedShape() {
    assertThat(ServicePropertiesXml.parse(utf8(SAMPLE))).isEqualTo(SAMPLE_PROPERTIES);
  }

  @Test
  void roundTripsDefaultsAndSample() {
    for (ServiceProperties properties : List.of(ServiceProperties.defaults(), SAMPLE_PROPERTIES)) {
      String xml = ServicePropertiesXml.write(properties);
      assertThat(xml)
          .startsWith(
              "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties><Logging>");
      assertThat(ServicePropertiesXml.parse(utf8(xml))).isEqualTo(properties);
    }
  }

  @Test
  void defaultsHaveEverythingOffAndNoRules() {
    assertThat(ServicePropertiesXml.write(ServiceProperties.defaults()))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>"
                + "<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write>"
                + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>"
                + "<HourMetrics><Version>1.0</Version><Enabled>false</Enabled>"
                + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>"
                + "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled>"
                + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>"
                + "<Cors></Cors></StorageServiceProperties>");
  }

  @Test
  void absentElementsKeepTheStoredValues() {
    ServiceProperties onlyCors =
        ServicePropertiesXml.parse(
            utf8(
                "<StorageServiceProperties><Cors><CorsRule>"
                    + "<AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods><MaxAgeInSeconds>0</MaxAgeInSeconds>"
                    + "<AllowedHeaders/><ExposedHeaders/></CorsRule></Cors></StorageServiceProperties>"));
    ServiceProperties merged = SAMPLE_PROPERTIES.withChanges(onlyCors);

    assertThat(merged.logging()).isEqualTo(SAMPLE_PROPERTIES.logging());
    assertThat(merged.hourMetrics()).isEqualTo(SAMPLE_PROPERTIES.hourMetrics());
    assertThat(merged.minuteMetrics()).isEqualTo(SAMPLE_PROPERTIES.minuteMetrics());
    assertThat(merged.cors())
        .containsExactly(new CorsRule(List.of("*"), List.of("GET"), List.of(), List.of(), 0));
  }

  @Test
  void emptyCorsElementRemovesTheRulesAndEmptyDocumentChangesNothing() {
    ServiceProperties noCors =
        ServicePropertiesXml.parse(
            utf8("<StorageServiceProperties><Cors/></StorageServiceProperties>"));
    assertThat(SAMPLE_PROPERTIES.withChanges(noCors).cors()).isEmpty();
    assertThat(SAMPLE_PROPERTIES.withChanges(noCors).logging())
        .isEqualTo(SAMPLE_PROPERTIES.logging());

    ServiceProperties nothing = ServicePropertiesXml.parse(utf8("<StorageServiceProperties/>"));
    assertThat(SAMPLE_PROPERTIES.withChanges(nothing)).isEqualTo(SAMPLE_PROPERTIES);
  }

  @Test
  void loggingAloneReplacesOnlyLogging() {
    ServiceProperties logging =
        ServicePropertiesXml.parse(
            utf8(
                "<StorageServiceProperties><Logging>"
                    + "<Version>1.0</Version><Delete>false</Delete><Read>true</Read><Write>false</Write>"
                    + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging></StorageServiceProperties>"));
    ServiceProperties merged = SAMPLE_PROPERTIES.withChanges(logging);

    assertThat(merged.logging())
        .isEqualTo(new Logging("1.0", false, true, false, RetentionPolicy.DISABLED));
    assertThat(merged.cors()).isEqualTo(SAMPLE_PROPERTIES.cors());
  }

  @Test
  void fiveCorsRulesAreTheLimit() {
    String rule =
        "<CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods>"
            + "<MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule>";
    assertThat(
            ServicePropertiesXml.parse(
                    utf8(
                        "<StorageServiceProperties><Cors>"
                            + rule.repeat(5)
                            + "</Cors></StorageServiceProperties>"))
                .cors())
        .hasSize(5);
    assertFails(
        TableErrorCode.INVALID_XML_DOCUMENT,
        () ->
            ServicePropertiesXml.parse(
                utf8(
                    "<StorageServiceProperties><Cors>"
                        + rule.repeat(6)
                        + "</Cors></StorageServiceProperties>")));
  }

  @Test
  void valuesOutOfRangeAreInvalidNodeValues() {
    for (String fragment :
        List.of(
            "<Logging><Delete>maybe</Delete></Logging>",
            cors("*", "GET,FETCH", "1", ""),
            cors("*", "GET", "-1", ""),
            cors("*", "GET", "soon", ""),
            cors(" , ", "GET", "1", ""),
            cors("http://a.com,https://" + "o".repeat(249), "GET", "1", ""),
            cors("*", "GET", "1", "<AllowedHeaders>a*,b*,c*</AllowedHeaders>"))) {
      assertFails(
          TableErrorCode.INVALID_XML_NODE_VALUE,
          () ->
              ServicePropertiesXml.parse(
                  utf8("<StorageServiceProperties>" + fragment + "</StorageServiceProperties>")));
    }
  }

  @Test
  void anOriginOf256CharactersIsTheLimit() {
    String origin = "https://" + "o".repeat(248);
    assertThat(
            ServicePropertiesXml.parse(
                    utf8(
                        "<StorageServiceProperties>"
                            + cors(origin, "GET", "1", "")
                            + "</StorageServiceProperties>"))
                .cors()
                .get(0)
                .allowedOrigins())
        .containsExactly(origin);
  }

  @Test
  void sixtyFourLiteralHeadersAreTheLimit() {
    String headers64 =
        String.join(",", java.util.stream.IntStream.range(0, 64).mapToObj(i -> "h" + i).toList());
    assertThat(
            ServicePropertiesXml.parse(
                    utf8(
                        "<StorageServiceProperties>"
                            + cors(
                                "*",
                                "GET",
                                "1",
                                "<ExposedHeaders>" + headers64 + ",x*,y*</ExposedHeaders>")
                            + "</StorageServiceProperties>"))
                .cors()
                .get(0)
                .exposedHeaders())
        .hasSize(66);
    assertFails(
        TableErrorCode.INVALID_XML_NODE_VALUE,
        () ->
            ServicePropertiesXml.parse(
                utf8(
                    "<StorageServiceProperties>"
                        + cors(
                            "*",
                            "GET",
                            "1",
                            "<ExposedHeaders>" + headers64 + ",h64</ExposedHeaders>")
                        + "</StorageServiceProperties>")));
  }

  @Test
  void structuralProblemsAreInvalidDocuments() {
    for (String xml :
        List.of(
            "<ServiceProperties/>",
            "<StorageServiceProperties><Cors><Rule/></Cors>" + "</StorageServiceProperties>",
            "<StorageServiceProperties>"
                + cors(null, "GET", "1", "")
                + "</StorageServiceProperties>",
            "<StorageServiceProperties>" + cors("*", null, "1", "") + "</StorageServiceProperties>",
            "<StorageServiceProperties>"
                + cors("*", "GET", null, "")
                + "</StorageServiceProperties>",
            "<StorageServiceProperties><Logging/><Logging/></StorageServiceProperties>",
            // retention days out of 1 to 365, as Azure answers 366 (recorded)
            "<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>true</Enabled>"
                + "<IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>0</Days>"
                + "</RetentionPolicy></HourMetrics></StorageServiceProperties>",
            "<StorageServiceProperties><Logging><RetentionPolicy><Enabled>true</Enabled><Days>366</Days>"
                + "</RetentionPolicy></Logging></StorageServiceProperties>",
            "<StorageServiceProperties><Logging><RetentionPolicy><Enabled>true</Enabled>"
                + "</RetentionPolicy></Logging></StorageServiceProperties>",
            "<StorageServiceProperties>")) {
      assertFails(TableErrorCode.INVALID_XML_DOCUMENT, () -> ServicePropertiesXml.parse(utf8(xml)));
    }
  }

  static String cors(String origins, String methods, String maxAge, String extra) {
    return "<Cors><CorsRule>"
        + (origins == null ? "" : "<AllowedOrigins>" + origins + "</AllowedOrigins>")
        + (methods == null ? "" : "<AllowedMethods>" + methods + "</AllowedMethods>")
        + (maxAge == null ? "" : "<MaxAgeInSeconds>" + maxAge + "</MaxAgeInSeconds>")
        + extra
        + "</CorsRule></Cors>";
  }

  @Test
  void theJavaSdkReadsWhatWeWrite() throws Exception {
    TableServiceProperties read =
        TableServiceProperties.fromXml(
            XmlReader.fromString(ServicePropertiesXml.write(SAMPLE_PROPERTIES)));

    assertThat(read.getLogging().isDeleteLogged()).isTrue();
    assertThat(read.getLogging().isReadLogged()).isFalse();
    assertThat(read.getLogging().getRetentionPolicy().getDaysToRetain()).isEqualTo(30);
    assertThat(read.getHourMetrics().isEnabled()).isTrue();
    assertThat(read.getHourMetrics().isIncludeApis()).isFalse();
    assertThat(read.getMinuteMetrics().isEnabled()).isFalse();
    assertThat(read.getCorsRules()).hasSize(1);
    TableServiceCorsRule rule = read.getCorsRules().get(0);
    assertThat(rule.getAllowedOrigins()).isEqualTo("http://a.com,http://b.com");
    assertThat(rule.getAllowedMethods()).isEqualTo("GET,PUT");
    assertThat(rule.getAllowedHeaders()).isEqualTo("x-ms-meta-target*,content-type");
    assertThat(rule.getExposedHeaders()).isEqualTo("x-ms-meta-data*");
    assertThat(rule.getMaxAgeInSeconds()).isEqualTo(500);
  }

  @Test
  void weReadWhatTheJavaSdkSends() {
    SdkCapture capture = new SdkCapture();
    TableServiceClient client =
        new TableServiceClientBuilder()
            .endpoint("http://127.0.0.1:10002/devstoreaccount1")
            .httpClient(capture)
            .credential(new AzureNamedKeyCredential("devstoreaccount1", "a2V5"))
            .buildClient();
    TableServiceProperties properties =
        new TableServiceProperties()
            .setLogging(
                new TableServiceLogging()
                    .setAnalyticsVersion("1.0")
                    .setReadLogged(true)
                    .setRetentionPolicy(
                        new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(5)))
            .setHourMetrics(
                new TableServiceMetrics()
                    .setVersion("1.0")
                    .setEnabled(true)
                    .setIncludeApis(true)
                    .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(false)))
            .setCorsRules(
                List.of(
                    new TableServiceCorsRule()
                        .setAllowedOrigins("*")
                        .setAllowedMethods("GET,MERGE")
                        .setAllowedHeaders("*")
                        .setExposedHeaders("")
                        .setMaxAgeInSeconds(60)));

    ServiceProperties parsed =
        ServicePropertiesXml.parse(capture.captureBody(() -> client.setProperties(properties)));

    assertThat(parsed.logging())
        .isEqualTo(new Logging("1.0", false, true, false, new RetentionPolicy(true, 5)));
    assertThat(parsed.hourMetrics())
        .isEqualTo(new Metrics("1.0", true, true, RetentionPolicy.DISABLED));
    assertThat(parsed.minuteMetrics()).isNull();
    assertThat(parsed.cors())
        .containsExactly(
            new CorsRule(List.of("*"), List.of("GET", "MERGE"), List.of("*"), List.of(), 60));
  }
}
