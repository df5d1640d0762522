package dev.trestle.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.testing.TestCertificates;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --cert, --key, --pwd and --disable-product-style-url from flags, variables and the file. */
class EndpointSettingsTest {
  @TempDir Path dir;

  private static EndpointSettings resolve(
      Map<String, String> environment, String cert, String key, String pwd) {
    return EndpointSettings.resolve(
        Configuration.load(null, environment),
        new EndpointSettings.EndpointFlags(cert, key, pwd, null));
  }

  @Test
  void byDefaultPlainHttpAndBothUrlStyles() {
    EndpointSettings settings = resolve(Map.of(), null, null, null);
    assertThat(settings.certificate()).isEmpty();
    assertThat(settings.hostStyleUrls()).isTrue();
    assertThat(
            EndpointSettings.resolve(
                    Configuration.load(null, Map.of()),
                    new EndpointSettings.EndpointFlags(null, null, null, true))
                .hostStyleUrls())
        .isFalse();
    assertThat(
            resolve(Map.of("TRESTLE_DISABLE_PRODUCT_STYLE_URL", "true"), null, null, null)
                .hostStyleUrls())
        .isFalse();
  }

  @Test
  void aPemPairOrAPkcs12FileGivesTheCertificate() {
    TestCertificates.Issued issued = TestCertificates.selfSigned("EC", "localhost", "127.0.0.1");
    Path cert = issued.writeCertificate(dir.resolve("cert.pem"));
    Path key = issued.writeKeyPkcs8(dir.resolve("key.pem"));
    assertThat(resolve(Map.of(), cert.toString(), key.toString(), null).certificate())
        .hasValueSatisfying(c -> assertThat(c.names()).containsExactly("localhost", "127.0.0.1"));

    Path pfx = issued.writePkcs12(dir.resolve("server.pfx"), "pw".toCharArray());
    assertThat(
            resolve(Map.of("TRESTLE_CERT", pfx.toString(), "TRESTLE_PWD", "pw"), null, null, null)
                .certificate())
        .isPresent();
  }

  @Test
  void eachMistakeNamesItsSettingAndWhereItCameFrom() {
    TestCertificates.Issued issued = TestCertificates.selfSigned("EC", "localhost");
    TestCertificates.Issued other = TestCertificates.selfSigned("EC", "localhost");
    Path cert = issued.writeCertificate(dir.resolve("cert.pem"));
    Path otherKey = other.writeKeyPkcs8(dir.resolve("other.pem"));
    Path pfx = issued.writePkcs12(dir.resolve("server.pfx"), "pw".toCharArray());
    Path missing = dir.resolve("missing.pem");

    assertThatThrownBy(() -> resolve(Map.of(), null, otherKey.toString(), null))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("--key needs --cert: the certificate to serve HTTPS with");
    assertThatThrownBy(() -> resolve(Map.of("TRESTLE_PWD", "pw"), null, null, null))
        .hasMessageStartingWith("--pwd (from TRESTLE_PWD) needs --cert");
    assertThatThrownBy(() -> resolve(Map.of(), missing.toString(), null, null))
        .hasMessage("--cert: '" + missing + "' does not exist.");
    assertThatThrownBy(() -> resolve(Map.of("TRESTLE_CERT", missing.toString()), null, null, null))
        .hasMessage("--cert (from TRESTLE_CERT): '" + missing + "' does not exist.");
    assertThatThrownBy(() -> resolve(Map.of(), cert.toString(), otherKey.toString(), null))
        .hasMessageStartingWith(
            "--key: the private key in '"
                + otherKey
                + "' does not match the certificate in '"
                + cert);
    assertThatThrownBy(() -> resolve(Map.of(), cert.toString(), null, null))
        .hasMessageStartingWith("--cert: '" + cert + "' holds certificates but no private key");
    assertThatThrownBy(() -> resolve(Map.of(), pfx.toString(), null, "wrong"))
        .hasMessage(
            "--pwd: the PKCS#12 file '" + pfx + "' cannot be opened with the password given.");
  }
}
