package dev.trestle.cli;

import picocli.CommandLine.Option;

/** The credentials of the SQL database that import --from-sql reads or export --to-sql writes. */
final class SqlConnectionOptions {
  @Option(
      names = "--sql-user",
      paramLabel = "USER",
      order = 41,
      description = "User for the --from-sql or --to-sql database (or in its URL).")
  String user;

  @Option(
      names = "--sql-password",
      paramLabel = "PASSWORD",
      order = 42,
      description = "Password for the --from-sql or --to-sql database.")
  String password;
}
