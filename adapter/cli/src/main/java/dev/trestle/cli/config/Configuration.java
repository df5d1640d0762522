package dev.trestle.cli.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Resolves settings with the precedence flag, then {@code TRESTLE_*} environment variable, then
 * Azurite's variable where it has one ({@code AZURITE_ACCOUNTS}), then config file, then default.
 * Every parse error names the setting and the source it came from.
 */
public final class Configuration {
  /** The environment variable naming the config file when {@code --config} is absent. */
  public static final String CONFIG_VARIABLE = "TRESTLE_CONFIG";

  private final Map<String, String> environment;
  private final Properties file;
  private final String fileSource;

  private Configuration(Map<String, String> environment, Properties file, String fileSource) {
    this.environment = Map.copyOf(environment);
    this.file = file;
    this.fileSource = fileSource;
  }

  /**
   * Reads the config file named by {@code configFlag} or {@code TRESTLE_CONFIG}, if any, and checks
   * its keys.
   */
  public static Configuration load(String configFlag, Map<String, String> environment) {
    String path = configFlag != null ? configFlag : nonEmpty(environment.get(CONFIG_VARIABLE));
    if (path == null) {
      return new Configuration(environment, new Properties(), null);
    }
    String origin = configFlag != null ? "--config" : CONFIG_VARIABLE;
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException | RuntimeException e) {
      throw new ConfigurationException(
          "Cannot read config file '" + path + "' (from " + origin + "): " + describe(e) + ".");
    }
    for (String key : properties.stringPropertyNames()) {
      if (Setting.byKey(key) == null) {
        throw new ConfigurationException(
            "Unknown setting '"
                + key
                + "' in config file '"
                + path
                + "'; known settings: "
                + Arrays.stream(Setting.values())
                    .map(Setting::key)
                    .collect(Collectors.joining(", "))
                + ".");
      }
    }
    return new Configuration(environment, properties, "config file '" + path + "'");
  }

  /** A value and where it came from, e.g. {@code --port} or {@code TRESTLE_PORT}. */
  public record Value(String text, String source) {}

  /** The winning value; its text is null when no source sets it and the setting has no default. */
  public Value resolve(Setting setting, String flagValue) {
    if (flagValue != null) {
      return new Value(flagValue, setting.flag());
    }
    String fromEnvironment = nonEmpty(environment.get(setting.environmentVariable()));
    if (fromEnvironment != null) {
      return new Value(fromEnvironment, setting.environmentVariable());
    }
    String fromAzurite =
        setting.azuriteVariable() == null
            ? null
            : nonEmpty(environment.get(setting.azuriteVariable()));
    if (fromAzurite != null) {
      return new Value(fromAzurite, setting.azuriteVariable());
    }
    String fromFile = nonEmpty(file.getProperty(setting.key()));
    if (fromFile != null) {
      return new Value(fromFile.strip(), fileSource);
    }
    return new Value(setting.defaultValue(), "default");
  }

  public String string(Setting setting, String flagValue) {
    return resolve(setting, flagValue).text();
  }

  public int integer(Setting setting, String flagValue, int min, int max) {
    Value value = resolve(setting, flagValue);
    try {
      int number = Integer.parseInt(value.text().strip());
      if (number >= min && number <= max) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below with the accepted range
    }
    throw invalid(setting, value, "a whole number from " + min + " to " + max);
  }

  /** A number of seconds or the like, fractions allowed (e.g. 0.5). */
  public double decimal(Setting setting, String flagValue, double min, double max) {
    Value value = resolve(setting, flagValue);
    try {
      double number = Double.parseDouble(value.text().strip());
      if (number >= min && number <= max) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below with the accepted range
    }
    throw invalid(setting, value, "a number from " + min + " to " + max);
  }

  public boolean bool(Setting setting, Boolean flagValue) {
    Value value = resolve(setting, flagValue == null ? null : flagValue.toString());
    return switch (value.text().strip().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on", "1" -> true;
      case "false", "no", "off", "0" -> false;
      default -> throw invalid(setting, value, "true or false");
    };
  }

  /**
   * A repeatable setting: all flag values, else a variable or file entry separated by commas (or
   * semicolons, as in {@code AZURITE_ACCOUNTS}), else the default.
   */
  public List<String> list(Setting setting, List<String> flagValues) {
    String joined =
        flagValues == null || flagValues.isEmpty() ? null : String.join(",", flagValues);
    String text = resolve(setting, joined).text();
    List<String> items = new ArrayList<>();
    if (text != null) {
      for (String item : text.split("[,;\\s]+")) {
        if (!item.isEmpty()) {
          items.add(item);
        }
      }
    }
    return items;
  }

  /**
   * An error for a value that does not parse, naming the setting, the source and what is accepted.
   */
  public static ConfigurationException invalid(Setting setting, Value value, String expected) {
    String shown = setting == Setting.DB_PASSWORD || setting == Setting.PWD ? "***" : value.text();
    return new ConfigurationException(
        setting.flag()
            + " must be "
            + expected
            + ", but was '"
            + shown
            + "'"
            + (value.source().equals(setting.flag()) ? "" : " (from " + value.source() + ")")
            + ".");
  }

  private static String nonEmpty(String text) {
    return text == null || text.isBlank() ? null : text;
  }

  private static String describe(Exception e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
