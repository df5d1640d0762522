package dev.trestle.cli.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Everything {@code trestle serve} needs, resolved and checked. An empty account list means the dev account. */
public record ServerSettings(DatabaseSettings database, String host, int port, List<Account> accounts,
    boolean allowAnonymous, String logLevel) {

  public ServerSettings {
    accounts = List.copyOf(accounts);
  }

  /** The flag values as given (null when absent). */
  public record ServerFlags(String host, String port, List<String> accounts, Boolean allowAnonymous, String logLevel) {}

  public static ServerSettings resolve(Configuration configuration, DatabaseSettings.DatabaseFlags databaseFlags,
      ServerFlags flags) {
    DatabaseSettings database = DatabaseSettings.resolve(configuration, databaseFlags);
    String host = configuration.string(Setting.HOST, flags.host());
    int port = configuration.integer(Setting.PORT, flags.port(), 0, 65535);
    List<Account> accounts = new ArrayList<>();
    Configuration.Value accountSource = configuration.resolve(Setting.ACCOUNT,
        flags.accounts() == null || flags.accounts().isEmpty() ? null : String.join(",", flags.accounts()));
    for (String item : configuration.list(Setting.ACCOUNT, flags.accounts())) {
      Account account = Account.parse(item, accountSource);
      if (accounts.stream().anyMatch(a -> a.name().equals(account.name()))) {
        throw new ConfigurationException(Setting.ACCOUNT.flag() + " names account '" + account.name()
            + "' twice; give both keys in one entry as NAME:KEY1:KEY2.");
      }
      accounts.add(account);
    }
    boolean anonymous = configuration.bool(Setting.ALLOW_ANONYMOUS, flags.allowAnonymous());
    Configuration.Value level = configuration.resolve(Setting.LOG_LEVEL, flags.logLevel());
    String logLevel = level.text().strip().toLowerCase(Locale.ROOT);
    if (!List.of("error", "warn", "info", "debug", "trace").contains(logLevel)) {
      throw Configuration.invalid(Setting.LOG_LEVEL, level, "one of error, warn, info, debug, trace");
    }
    return new ServerSettings(database, host, port, accounts, anonymous, logLevel);
  }
}
