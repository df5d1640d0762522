package dev.trestle.cli.config;

import dev.trestle.RelaxedTransactions;
import dev.trestle.server.auth.TokenAuthentication;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything {@code trestle serve} needs, resolved and checked. An empty account list means the dev
 * account; no operations address means {@code /health} and {@code /metrics} are served on the API
 * port.
 */
public record ServerSettings(
    DatabaseSettings database,
    String host,
    int port,
    List<Account> accounts,
    boolean allowAnonymous,
    String logLevel,
    Optional<OperationsAddress> operations,
    ClientLimits limits,
    Optional<TokenAuthentication> tokens,
    LogFormat logFormat,
    EndpointSettings endpoint,
    Leniency leniency,
    LogOutput logOutput,
    boolean extensions,
    Duration settingsRefresh,
    Optional<RelaxedTransactions> relaxedTransactions) {

  public ServerSettings {
    accounts = List.copyOf(accounts);
  }

  /**
   * How log lines are written: {@code text} for people, {@code json} (one object a line) for
   * shippers.
   */
  public enum LogFormat {
    TEXT,
    JSON
  }

  /**
   * What a request may get away with that Azure refuses: a Shared Key without any date ({@code
   * --loose}), an {@code x-ms-version} after the newest known ({@code --skip-api-version-check}).
   */
  public record Leniency(boolean undatedSharedKey, boolean skipApiVersionCheck) {
    public static final Leniency NONE = new Leniency(false, false);
  }

  /** Whether each request is logged ({@code --access-log}) and the file logs also go to. */
  public record LogOutput(boolean accessLog, Optional<Path> file) {
    public static final LogOutput DEFAULT = new LogOutput(true, Optional.empty());
  }

  /**
   * The flag values of the data location, logging and leniency settings as given (null when
   * absent); Azurite's names for them are aliases of these flags.
   */
  public record ExtraFlags(
      String dataDir,
      Boolean inMemory,
      Boolean accessLog,
      String logFile,
      Boolean loose,
      Boolean skipApiVersionCheck) {
    public static final ExtraFlags NONE = new ExtraFlags(null, null, null, null, null, null);
  }

  /** Where {@code /health} and {@code /metrics} are served instead of the API port. */
  public record OperationsAddress(String host, int port) {}

  /**
   * What a client may take: header deadline (zero: none), body bytes per second (0: none),
   * connections (0: no cap).
   */
  public record ClientLimits(Duration headerTimeout, long minBodyRate, int maxConnections) {}

  /** The flag values as given (null when absent). */
  public record ServerFlags(
      String host,
      String port,
      List<String> accounts,
      Boolean allowAnonymous,
      String logLevel,
      String opsHost,
      String opsPort,
      String headerTimeout,
      String minBodyRate,
      String maxConnections,
      String extensions,
      String settingsRefresh,
      String relaxedTransactions) {

    /** Only the flags that select the API address, accounts and logging. */
    public ServerFlags(
        String host, String port, List<String> accounts, Boolean allowAnonymous, String logLevel) {
      this(
          host,
          port,
          accounts,
          allowAnonymous,
          logLevel,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null);
    }
  }

  public static ServerSettings resolve(
      Configuration configuration,
      DatabaseSettings.DatabaseFlags databaseFlags,
      ServerFlags flags) {
    return resolve(configuration, databaseFlags, flags, TokenSettings.TokenFlags.NONE, null);
  }

  /** As the settings below, with plain HTTP and both URL styles. */
  public static ServerSettings resolve(
      Configuration configuration,
      DatabaseSettings.DatabaseFlags databaseFlags,
      ServerFlags flags,
      TokenSettings.TokenFlags tokenFlags,
      String logFormatFlag) {
    return resolve(
        configuration,
        databaseFlags,
        flags,
        tokenFlags,
        logFormatFlag,
        EndpointSettings.EndpointFlags.NONE);
  }

  /** As the settings above, with Bearer tokens, the log format, HTTPS and the URL styles. */
  public static ServerSettings resolve(
      Configuration configuration,
      DatabaseSettings.DatabaseFlags databaseFlags,
      ServerFlags flags,
      TokenSettings.TokenFlags tokenFlags,
      String logFormatFlag,
      EndpointSettings.EndpointFlags endpointFlags) {
    return resolve(
        configuration,
        databaseFlags,
        flags,
        tokenFlags,
        logFormatFlag,
        endpointFlags,
        ExtraFlags.NONE);
  }

  /** As the settings above, with the data location, log output and leniency. */
  public static ServerSettings resolve(
      Configuration configuration,
      DatabaseSettings.DatabaseFlags databaseFlags,
      ServerFlags flags,
      TokenSettings.TokenFlags tokenFlags,
      String logFormatFlag,
      EndpointSettings.EndpointFlags endpointFlags,
      ExtraFlags extraFlags) {
    DatabaseSettings database =
        DatabaseSettings.resolve(
            configuration,
            DataLocation.apply(
                configuration, databaseFlags, extraFlags.dataDir(), extraFlags.inMemory()));
    String host = configuration.string(Setting.HOST, flags.host());
    int port = configuration.integer(Setting.PORT, flags.port(), 0, 65535);
    List<Account> accounts = new ArrayList<>();
    Configuration.Value accountSource =
        configuration.resolve(
            Setting.ACCOUNT,
            flags.accounts() == null || flags.accounts().isEmpty()
                ? null
                : String.join(",", flags.accounts()));
    for (String item : configuration.list(Setting.ACCOUNT, flags.accounts())) {
      Account account = Account.parse(item, accountSource);
      if (accounts.stream().anyMatch(a -> a.name().equals(account.name()))) {
        throw new ConfigurationException(
            Setting.ACCOUNT.flag()
                + " names account '"
                + account.name()
                + "' twice; give both keys in one entry as NAME:KEY1:KEY2.");
      }
      accounts.add(account);
    }
    boolean anonymous = configuration.bool(Setting.ALLOW_ANONYMOUS, flags.allowAnonymous());
    Configuration.Value level = configuration.resolve(Setting.LOG_LEVEL, flags.logLevel());
    String logLevel = level.text().strip().toLowerCase(Locale.ROOT);
    if (!List.of("error", "warn", "info", "debug", "trace").contains(logLevel)) {
      throw Configuration.invalid(
          Setting.LOG_LEVEL, level, "one of error, warn, info, debug, trace");
    }
    return new ServerSettings(
        database,
        host,
        port,
        accounts,
        anonymous,
        logLevel,
        operations(configuration, flags, host, port),
        limits(configuration, flags),
        TokenSettings.resolve(configuration, tokenFlags),
        logFormat(configuration, logFormatFlag),
        EndpointSettings.resolve(configuration, endpointFlags),
        new Leniency(
            configuration.bool(Setting.LOOSE, extraFlags.loose()),
            configuration.bool(Setting.SKIP_API_VERSION_CHECK, extraFlags.skipApiVersionCheck())),
        logOutput(configuration, extraFlags),
        extensions(configuration, flags),
        Duration.ofMillis(
            Math.round(
                1000
                    * configuration.decimal(
                        Setting.SETTINGS_REFRESH, flags.settingsRefresh(), 0, 3600))),
        relaxedTransactions(configuration, flags));
  }

  /** {@code off}, {@code on} (the library's default bounds) or {@code OPERATIONS:MIB}. */
  private static Optional<RelaxedTransactions> relaxedTransactions(
      Configuration configuration, ServerFlags flags) {
    Configuration.Value value =
        configuration.resolve(Setting.RELAXED_TRANSACTIONS, flags.relaxedTransactions());
    String text = value.text().strip().toLowerCase(Locale.ROOT);
    if (text.equals("off")) {
      return Optional.empty();
    }
    RelaxedTransactions bounds = RelaxedTransactions.DEFAULT;
    if (!text.equals("on")) {
      java.util.regex.Matcher given =
          java.util.regex.Pattern.compile("([1-9][0-9]{0,8}):([1-9][0-9]{0,5})").matcher(text);
      if (!given.matches()) {
        throw Configuration.invalid(
            Setting.RELAXED_TRANSACTIONS,
            value,
            "off, on, or OPERATIONS:MIB (the most operations and MiB of entities in one, e.g."
                + " 20000:64)");
      }
      bounds =
          new RelaxedTransactions(
              Integer.parseInt(given.group(1)), Long.parseLong(given.group(2)) << 20);
    }
    if (!extensions(configuration, flags)) {
      throw new ConfigurationException(
          Setting.RELAXED_TRANSACTIONS.flag()
              + " needs the extensions on: drop --extensions off, or set "
              + Setting.RELAXED_TRANSACTIONS.flag()
              + " off.");
    }
    return Optional.of(bounds);
  }

  private static boolean extensions(Configuration configuration, ServerFlags flags) {
    Configuration.Value value = configuration.resolve(Setting.EXTENSIONS, flags.extensions());
    return switch (value.text().strip().toLowerCase(Locale.ROOT)) {
      case "on" -> true;
      case "off" -> false;
      default -> throw Configuration.invalid(Setting.EXTENSIONS, value, "on or off");
    };
  }

  private static LogOutput logOutput(Configuration configuration, ExtraFlags flags) {
    Configuration.Value file = configuration.resolve(Setting.LOG_FILE, flags.logFile());
    Optional<Path> path = Optional.empty();
    if (file.text() != null) {
      try {
        path = Optional.of(Path.of(file.text().strip()).toAbsolutePath());
      } catch (java.nio.file.InvalidPathException e) {
        throw Configuration.invalid(Setting.LOG_FILE, file, "a file path");
      }
    }
    return new LogOutput(configuration.bool(Setting.ACCESS_LOG, flags.accessLog()), path);
  }

  private static LogFormat logFormat(Configuration configuration, String flag) {
    Configuration.Value value = configuration.resolve(Setting.LOG_FORMAT, flag);
    return switch (value.text().strip().toLowerCase(Locale.ROOT)) {
      case "text" -> LogFormat.TEXT;
      case "json" -> LogFormat.JSON;
      default -> throw Configuration.invalid(Setting.LOG_FORMAT, value, "text or json");
    };
  }

  private static Optional<OperationsAddress> operations(
      Configuration configuration, ServerFlags flags, String host, int port) {
    String opsHost = configuration.string(Setting.OPS_HOST, flags.opsHost());
    if (configuration.string(Setting.OPS_PORT, flags.opsPort()) == null) {
      if (opsHost != null) {
        throw new ConfigurationException(
            Setting.OPS_HOST.flag()
                + " needs "
                + Setting.OPS_PORT.flag()
                + ": without one, /health and /metrics are served on the API port.");
      }
      return Optional.empty();
    }
    int opsPort = configuration.integer(Setting.OPS_PORT, flags.opsPort(), 0, 65535);
    if (opsPort != 0 && opsPort == port) {
      throw new ConfigurationException(
          Setting.OPS_PORT.flag()
              + " must differ from "
              + Setting.PORT.flag()
              + " ("
              + port
              + "); leave it out to serve /health and /metrics on the API port.");
    }
    return Optional.of(new OperationsAddress(opsHost != null ? opsHost : host, opsPort));
  }

  private static ClientLimits limits(Configuration configuration, ServerFlags flags) {
    double headerSeconds =
        configuration.decimal(Setting.HEADER_TIMEOUT, flags.headerTimeout(), 0, 3600);
    return new ClientLimits(
        Duration.ofMillis(Math.round(1000 * headerSeconds)),
        configuration.integer(Setting.MIN_BODY_RATE, flags.minBodyRate(), 0, Integer.MAX_VALUE),
        configuration.integer(Setting.MAX_CONNECTIONS, flags.maxConnections(), 0, 1_000_000));
  }
}
