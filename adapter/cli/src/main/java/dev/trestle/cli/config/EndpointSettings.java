package dev.trestle.cli.config;

import dev.trestle.server.InvalidCertificateException;
import dev.trestle.server.ServerCertificate;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How {@code serve}'s Table endpoint is reached: HTTPS with a certificate, named as Azurite names
 * the flags ({@code --cert} PEM or PKCS#12, {@code --key} PEM key, {@code --pwd} PKCS#12 or key
 * password), and whether host-style URLs ({@code account.table.suffix}) are recognised ({@code
 * --disable-product-style-url}, Azurite's {@code --disableProductStyleUrl}). The certificate is
 * read here, so that a missing, unreadable or mismatched file stops the start with a message naming
 * the setting.
 */
public record EndpointSettings(Optional<ServerCertificate> certificate, boolean hostStyleUrls) {

  /** Plain HTTP, both URL styles: the defaults. */
  public static final EndpointSettings DEFAULT = new EndpointSettings(Optional.empty(), true);

  /** The flag values as given (null when absent). */
  public record EndpointFlags(String cert, String key, String pwd, Boolean disableProductStyleUrl) {
    public static final EndpointFlags NONE = new EndpointFlags(null, null, null, null);
  }

  public static EndpointSettings resolve(Configuration configuration, EndpointFlags flags) {
    Configuration.Value cert = configuration.resolve(Setting.CERT, flags.cert());
    Configuration.Value key = configuration.resolve(Setting.KEY, flags.key());
    Configuration.Value pwd = configuration.resolve(Setting.PWD, flags.pwd());
    boolean hostStyle =
        !configuration.bool(Setting.DISABLE_PRODUCT_STYLE_URL, flags.disableProductStyleUrl());
    if (cert.text() == null) {
      for (Configuration.Value orphan : new Configuration.Value[] {key, pwd}) {
        if (orphan.text() != null) {
          Setting setting = orphan == key ? Setting.KEY : Setting.PWD;
          throw new ConfigurationException(
              setting.flag()
                  + from(setting, orphan)
                  + " needs "
                  + Setting.CERT.flag()
                  + ": the certificate to serve HTTPS with (a PEM file, or a PKCS#12 .pfx file).");
        }
      }
      return new EndpointSettings(Optional.empty(), hostStyle);
    }
    Path keyFile = key.text() == null ? null : path(Setting.KEY, key);
    char[] password = pwd.text() == null ? null : pwd.text().toCharArray();
    try {
      return new EndpointSettings(
          Optional.of(ServerCertificate.read(path(Setting.CERT, cert), keyFile, password)),
          hostStyle);
    } catch (InvalidCertificateException e) {
      Setting setting =
          switch (e.part()) {
            case CERTIFICATE -> Setting.CERT;
            case KEY -> key.text() == null ? Setting.CERT : Setting.KEY;
            case PASSWORD -> Setting.PWD;
          };
      Configuration.Value value =
          setting == Setting.CERT ? cert : setting == Setting.KEY ? key : pwd;
      throw new ConfigurationException(
          setting.flag() + from(setting, value) + ": " + e.getMessage());
    }
  }

  private static Path path(Setting setting, Configuration.Value value) {
    try {
      return Path.of(value.text().strip());
    } catch (InvalidPathException e) {
      throw Configuration.invalid(setting, value, "a file path");
    }
  }

  /** Where a value came from, when not from its flag: " (from TRESTLE_CERT)". */
  private static String from(Setting setting, Configuration.Value value) {
    return value.source() == null || value.source().equals(setting.flag())
        ? ""
        : " (from " + value.source() + ")";
  }
}
