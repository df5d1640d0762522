package dev.trestle.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version Maven stamped into the jar, plus the Java runtime, for {@code trestle version} and
 * bug reports.
 */
public final class VersionInfo implements IVersionProvider {

  public static String version() {
    Properties properties = new Properties();
    try (InputStream in = VersionInfo.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      // an unreadable resource only loses the version number
    }
    return properties.getProperty("version", "unknown");
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "trestle " + version(),
      "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
