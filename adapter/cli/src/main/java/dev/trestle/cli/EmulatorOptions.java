package dev.trestle.cli;

import dev.trestle.cli.config.ConfigurationException;
import dev.trestle.cli.config.ServerSettings;
import dev.trestle.model.TableLimits;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of {@code serve} an emulator user reaches for: the data folder or memory, the log
 * output and leniency, each with Trestle's name and Azurite's ({@code --location}, {@code
 * --inMemoryPersistence}, {@code --silent}, {@code --debug FILE}, {@code --loose}, {@code
 * --skipApiVersionCheck}); Azurite options Trestle cannot honour are refused with a line saying
 * why.
 */
final class EmulatorOptions {
  @Option(
      names = {"--data-dir", "--location", "-l"},
      paramLabel = "DIR",
      order = 31,
      description =
          "Keep the H2 database in this folder (created if missing), instead of --db. Env"
              + " TRESTLE_DATA_DIR. Default: none (--db decides)")
  String dataDir;

  @Option(
      names = {"--in-memory", "--inMemoryPersistence"},
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 32,
      description =
          "Keep everything in memory only (H2 in memory, the fastest; lost when the server stops),"
              + " instead of --db. Env TRESTLE_IN_MEMORY. Default: false")
  Boolean inMemory;

  @Option(
      names = "--access-log",
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 33,
      description =
          "Log one line per request (logger dev.trestle.requests, at info). Env TRESTLE_ACCESS_LOG."
              + " Default: true")
  Boolean accessLog;

  @Option(
      names = {"--silent", "-s"},
      order = 34,
      description = "Azurite's name for --access-log false.")
  boolean silent;

  @Option(
      names = "--log-file",
      paramLabel = "FILE",
      order = 35,
      description =
          "Also write the log to this file (appended; its folder is created). Env TRESTLE_LOG_FILE."
              + " Default: none, the console only")
  String logFile;

  @Option(
      names = {"--debug", "-d"},
      paramLabel = "FILE",
      order = 36,
      description =
          "Azurite's name for --log-level debug --log-file FILE; the console keeps the info level.")
  String debugFile;

  @Option(
      names = {"--loose", "-L"},
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 37,
      description =
          "Accept Shared Key and Shared Key Lite requests that carry no date at all (x-ms-date or"
              + " Date), signed over an empty date line, which Azure refuses. Nothing else is"
              + " relaxed. Env TRESTLE_LOOSE. Default: false")
  Boolean loose;

  @Option(
      names = {"--skip-api-version-check", "--skipApiVersionCheck"},
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 38,
      description =
          "Serve x-ms-versions after the newest Trestle knows ("
              + TableLimits.NEWEST_API_VERSION
              + ") instead of answering 400 InvalidHeaderValue. Env TRESTLE_SKIP_API_VERSION_CHECK."
              + " Default: false")
  Boolean skipApiVersionCheck;

  @Option(
      names = "--disableTelemetry",
      order = 39,
      description = "Accepted for Azurite's command line; Trestle collects no telemetry.")
  boolean disableTelemetry;

  /** Azurite options Trestle cannot honour: refused with a line saying why, never ignored. */
  @Option(
      names = {
        "--blobHost",
        "--blobPort",
        "--queueHost",
        "--queuePort",
        "--blobKeepAliveTimeout",
        "--queueKeepAliveTimeout",
        "--tableKeepAliveTimeout",
        "--extentMemoryLimit"
      },
      arity = "0..1",
      hidden = true)
  List<String> unsupported;

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  /** The flag values as given, Azurite's {@code --silent} and {@code --debug} resolved. */
  ServerSettings.ExtraFlags flags() {
    return new ServerSettings.ExtraFlags(
        dataDir,
        inMemory,
        azuriteAlias("--silent", silent ? Boolean.FALSE : null, "--access-log", accessLog),
        azuriteAlias("--debug", debugFile, "--log-file", logFile),
        loose,
        skipApiVersionCheck);
  }

  /** The {@code --log-level} flag, or {@code debug} under Azurite's {@code --debug FILE}. */
  String logLevel(String logLevelFlag) {
    return azuriteAlias("--debug", debugFile == null ? null : "debug", "--log-level", logLevelFlag);
  }

  /** The value an Azurite flag stands for, unless the Trestle flag it stands for says otherwise. */
  private static <T> T azuriteAlias(String azurite, T implied, String trestle, T given) {
    if (implied == null) {
      return given;
    }
    if (given != null && !given.equals(implied)) {
      throw new ConfigurationException(
          azurite
              + " means "
              + trestle
              + " "
              + implied
              + ", but "
              + trestle
              + " is "
              + given
              + "; give one of them.");
    }
    return implied;
  }

  void refuseUnsupported() {
    if (unsupported == null || spec == null) {
      return;
    }
    String used =
        spec.commandLine().getParseResult().originalArgs().stream()
            .map(arg -> arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg)
            .filter(arg -> spec.findOption(arg) != null && spec.findOption(arg).hidden())
            .findFirst()
            .orElse("--blobHost");
    String why =
        used.startsWith("--table")
            ? "Trestle closes idle connections after 30 s and has no setting for it"
            : "Trestle serves the Table API only; blobs and queues need Azurite or Azure";
    throw new ConfigurationException(used + " cannot be honoured: " + why + ". Remove it.");
  }
}
