package dev.trestle.cli;

import dev.trestle.cli.config.Configuration;
import dev.trestle.cli.config.DatabaseSettings;
import picocli.CommandLine.Option;

/** The database flags every command that opens a database shares. */
public final class DatabaseOptions {

  @Option(
      names = "--db",
      paramLabel = "JDBC_URL",
      order = 1,
      description =
          "JDBC URL: jdbc:postgresql://HOST:PORT/DB, jdbc:h2:file:PATH, or jdbc:h2:mem:NAME (kept in "
              + "memory only, lost on stop). Env TRESTLE_DB. Default: jdbc:h2:file:./trestle-data/trestle")
  String db;

  @Option(
      names = "--db-user",
      paramLabel = "USER",
      order = 2,
      description = "Database user (or in the URL). Env TRESTLE_DB_USER.")
  String user;

  @Option(
      names = "--db-password",
      paramLabel = "PASSWORD",
      order = 3,
      description =
          "Database password. Env TRESTLE_DB_PASSWORD (preferred: flags show in process lists).")
  String password;

  @Option(
      names = "--pool-size",
      paramLabel = "N",
      order = 4,
      description = "Maximum database connections. Env TRESTLE_POOL_SIZE. Default: 10")
  String poolSize;

  @Option(
      names = "--db-wait",
      paramLabel = "SECONDS",
      order = 5,
      description =
          "How long to retry an unreachable database at start-up. Env TRESTLE_DB_WAIT. Default: 30")
  String startupWait;

  @Option(
      names = "--db-timeout",
      paramLabel = "SECONDS",
      order = 6,
      description =
          "How long a request waits for a database connection (database unreachable or every connection"
              + " busy), or on PostgreSQL for an answer from the database, before it is answered 503 ServerBusy, which"
              + " the Azure SDKs retry. Env TRESTLE_DB_TIMEOUT. Default: 2")
  String connectionTimeout;

  @Option(
      names = "--scalar-store",
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 7,
      description =
          "PostgreSQL: when this command creates the database's schema (or upgrades it to version 8),"
              + " add the scalar store, a narrow copy of each entity's small values that filters on"
              + " properties without an index read, several times faster, for about half again the cost"
              + " of a batch insert. Fixed from then on: a database that has it keeps it. Env"
              + " TRESTLE_SCALAR_STORE. Default: false")
  Boolean scalarStore;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      order = 20,
      description =
          "Properties file with any setting by its flag name without dashes (db=..., port=...). "
              + "Env TRESTLE_CONFIG. Flags win over TRESTLE_* variables, which win over the file.")
  String config;

  public DatabaseSettings.DatabaseFlags flags() {
    return new DatabaseSettings.DatabaseFlags(
        db, user, password, poolSize, startupWait, connectionTimeout, scalarStore);
  }

  public Configuration configuration(java.util.Map<String, String> environment) {
    return Configuration.load(config, environment);
  }
}
