package dev.trestle.server.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.server.internal.tls.CertificateFileException.Part;
import dev.trestle.testing.TestCertificates;
import dev.trestle.testing.TestCertificates.Issued;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Certificates and keys in every form operators have them, and each way they can be wrong. */
class CertificateFilesTest {
  private static final char[] PASSWORD = "s3cret pass".toCharArray();

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"RSA", "EC", "Ed25519"})
  void readsAPemCertificateWithItsKeyInEachForm(String algorithm) {
    Issued issued = TestCertificates.selfSigned(algorithm, "localhost", "127.0.0.1");
    Path certificate = issued.writeCertificate(dir.resolve("cert.pem"));

    for (Path key :
        new Path[] {
          issued.writeKeyPkcs8(dir.resolve("pkcs8.pem")),
          issued.writeKeyTraditional(dir.resolve("traditional.pem"))
        }) {
      TlsIdentity identity = CertificateFiles.read(certificate, key, null);
      assertThat(identity.certificate()).as(key.toString()).isEqualTo(issued.certificate());
      assertThat(KeyMatch.matches(identity.key(), issued.keys().getPublic())).isTrue();
    }
    Path encrypted = issued.writeKeyEncryptedPkcs8(dir.resolve("encrypted.pem"), PASSWORD);
    assertThat(CertificateFiles.read(certificate, encrypted, PASSWORD).certificate())
        .isEqualTo(issued.certificate());
    assertThat(
            CertificateFiles.read(issued.writeCombined(dir.resolve("both.pem")), null, null).key())
        .isNotNull();
  }

  @Test
  void readsOpenSslsEncryptedTraditionalKeys() {
    Issued issued = TestCertificates.selfSigned("RSA", "localhost");
    Path key = issued.writeKeyEncryptedTraditional(dir.resolve("key.pem"), PASSWORD);
    assertThat(Files.exists(key)).isTrue();
    TlsIdentity identity =
        CertificateFiles.read(issued.writeCertificate(dir.resolve("cert.pem")), key, PASSWORD);
    assertThat(identity.certificate()).isEqualTo(issued.certificate());
  }

  @Test
  void anEncryptedKeyNeedsTheRightPassword() {
    Issued issued = TestCertificates.selfSigned("EC", "localhost");
    Path certificate = issued.writeCertificate(dir.resolve("cert.pem"));
    Path pkcs8 = issued.writeKeyEncryptedPkcs8(dir.resolve("key.pem"), PASSWORD);
    Path traditional = issued.writeKeyEncryptedTraditional(dir.resolve("old.pem"), PASSWORD);

    for (Path key : new Path[] {pkcs8, traditional}) {
      assertFails(() -> CertificateFiles.read(certificate, key, null), Part.PASSWORD)
          .contains("is encrypted: give its password");
      assertFails(
              () -> CertificateFiles.read(certificate, key, "wrong".toCharArray()), Part.PASSWORD)
          .contains("cannot be decrypted with the password given");
    }
  }

  @Test
  void theChainMayComeInAnyOrderAndIsServedTheKeysCertificateFirst() throws Exception {
    Issued authority = TestCertificates.authority("Trestle Test CA");
    Issued server = TestCertificates.issuedBy(authority, "RSA", "localhost");
    Path reversed =
        new Issued(
                server.keys(),
                server.certificate(),
                List.of(authority.certificate(), server.certificate()))
            .writeCertificate(dir.resolve("chain.pem"));
    TlsIdentity identity =
        CertificateFiles.read(reversed, server.writeKeyPkcs8(dir.resolve("key.pem")), null);
    assertThat(identity.chain()).containsExactly(server.certificate(), authority.certificate());
  }

  @Test
  void aKeyOfAnotherCertificateIsRefused() {
    Issued one = TestCertificates.selfSigned("RSA", "localhost");
    Issued other = TestCertificates.selfSigned("RSA", "localhost");
    Issued ec = TestCertificates.selfSigned("EC", "localhost");
    Path certificate = one.writeCertificate(dir.resolve("cert.pem"));
    for (Issued wrong : new Issued[] {other, ec}) {
      Path key = wrong.writeKeyPkcs8(dir.resolve("wrong.pem"));
      assertFails(() -> CertificateFiles.read(certificate, key, null), Part.KEY)
          .contains(
              "the private key in '" + key + "' does not match the certificate in '" + certificate)
          .contains("CN=localhost");
    }
  }

  @Test
  void missingFilesAndFilesWithoutTheRightContentAreNamed() throws Exception {
    Issued issued = TestCertificates.selfSigned("EC", "localhost");
    Path certificate = issued.writeCertificate(dir.resolve("cert.pem"));
    Path key = issued.writeKeyPkcs8(dir.resolve("key.pem"));
    Path missing = dir.resolve("missing.pem");

    assertFails(() -> CertificateFiles.read(missing, key, null), Part.CERTIFICATE)
        .isEqualTo("'" + missing + "' does not exist.");
    assertFails(() -> CertificateFiles.read(certificate, missing, null), Part.KEY)
        .isEqualTo("'" + missing + "' does not exist.");
    assertFails(() -> CertificateFiles.read(dir, key, null), Part.CERTIFICATE)
        .startsWith("'" + dir + "' cannot be read");
    assertFails(() -> CertificateFiles.read(key, certificate, null), Part.CERTIFICATE)
        .contains("holds no certificate");
    assertFails(() -> CertificateFiles.read(certificate, certificate, null), Part.KEY)
        .contains("holds no private key");
    assertFails(() -> CertificateFiles.read(certificate, null, null), Part.KEY)
        .contains("holds certificates but no private key");
    Path broken =
        Files.writeString(
            dir.resolve("broken.pem"),
            "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n");
    assertFails(() -> CertificateFiles.read(broken, key, null), Part.CERTIFICATE)
        .startsWith("'" + broken + "' is not valid PEM");
  }

  @Test
  void readsAPkcs12FileWithItsPassword() throws Exception {
    Issued issued = TestCertificates.selfSigned("RSA", "localhost");
    Path pfx = issued.writePkcs12(dir.resolve("server.pfx"), PASSWORD);

    TlsIdentity identity = CertificateFiles.read(pfx, null, PASSWORD);
    assertThat(identity.certificate()).isEqualTo(issued.certificate());
    assertFails(() -> CertificateFiles.read(pfx, null, "wrong".toCharArray()), Part.PASSWORD)
        .contains("cannot be opened with the password given");
    assertFails(() -> CertificateFiles.read(pfx, null, null), Part.PASSWORD)
        .contains("cannot be opened with an empty password: give its password");
    assertFails(() -> CertificateFiles.read(pfx, dir.resolve("key.pem"), PASSWORD), Part.KEY)
        .contains("PKCS#12 (.pfx) file, which holds its own key");
    Path garbage = Files.write(dir.resolve("garbage.bin"), new byte[] {1, 2, 3, 4});
    assertFails(() -> CertificateFiles.read(garbage, null, PASSWORD), Part.CERTIFICATE)
        .contains("is neither PEM text nor a PKCS#12 (.pfx) file");
  }

  private static org.assertj.core.api.AbstractStringAssert<?> assertFails(
      ThrowingCallable call, Part part) {
    CertificateFileException[] thrown = new CertificateFileException[1];
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            CertificateFileException.class,
            e -> {
              assertThat(e.part()).as(e.getMessage()).isEqualTo(part);
              thrown[0] = e;
            });
    return assertThat(thrown[0].getMessage());
  }
}
