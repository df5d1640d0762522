package dev.trestle.cli.config;

/**
 * A setting that cannot be used, with a message that names the setting, where it came from and the
 * fix.
 */
public final class ConfigurationException extends RuntimeException {
  public ConfigurationException(String message) {
    super(message);
  }
}
