package dev.trestle.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.database.DatabaseConnector;
import dev.trestle.store.H2IndexRepair;
import dev.trestle.store.NewerSchemaException;
import dev.trestle.store.SchemaMigrator;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "migrate",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Apply Trestle's schema to the database (in the connection's current schema) and report its version.",
      "serve does this by itself; run migrate separately when the server's user may not change the schema."
    })
final class MigrateCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--status",
      order = 10,
      description = "Only report the schema version; change nothing.")
  boolean statusOnly;

  @Override
  public Integer call() {
    DatabaseSettings settings =
        DatabaseSettings.resolve(database.configuration(trestle.environment()), database.flags());
    // Before the pool opens the file: H2 marks it clean again when it closes it, so even --status
    // repairs a killed file (it rebuilds indexes, changing no row), or no later command would know.
    H2IndexRepair repair = H2IndexRepair.beforeOpening(settings.jdbcUrl());
    // Flyway holds one connection for its lock and works on another
    try (HikariDataSource dataSource = DatabaseConnector.open(settings.withPoolSize(2), null)) {
      Optional<String> before = version(dataSource, settings);
      if (statusOnly) {
        refuseNewer(dataSource);
        Database.repair(repair, dataSource, settings);
        trestle
            .out()
            .println(
                before.map(v -> "Schema version " + v).orElse("No Trestle schema")
                    + " in "
                    + settings.redactedUrl()
                    + withScalarStore(dataSource));
        return ExitCode.OK;
      }
      String after;
      try {
        after = SchemaMigrator.migrate(dataSource, settings.scalarStore());
      } catch (RuntimeException e) {
        throw new CliException(
            ExitCode.DATABASE,
            "Cannot apply the schema to "
                + settings.redactedUrl()
                + ": "
                + Trestle.oneLine(String.valueOf(e.getMessage())),
            e);
      }
      Database.repair(repair, dataSource, settings);
      trestle
          .out()
          .println(
              (before.equals(Optional.of(after))
                      ? "Schema version "
                          + after
                          + " in "
                          + settings.redactedUrl()
                          + " is up to date"
                      : "Schema version "
                          + after
                          + " applied to "
                          + settings.redactedUrl()
                          + before.map(v -> " (was " + v + ")").orElse(" (was empty)"))
                  + withScalarStore(dataSource));
      return ExitCode.OK;
    }
  }

  /** A schema a newer Trestle migrated is this one's to refuse, also when only asked its status. */
  private static void refuseNewer(HikariDataSource dataSource) {
    try {
      SchemaMigrator.refuseNewerSchema(dataSource);
    } catch (NewerSchemaException e) {
      throw new CliException(ExitCode.DATABASE, e.getMessage(), e);
    }
  }

  /** What the report adds for a database that has the scalar store. */
  private static String withScalarStore(HikariDataSource dataSource) {
    return SchemaMigrator.hasScalarStore(dataSource) ? ", with the scalar store" : "";
  }

  private static Optional<String> version(HikariDataSource dataSource, DatabaseSettings settings) {
    try {
      return SchemaMigrator.version(dataSource);
    } catch (RuntimeException e) {
      throw new CliException(
          ExitCode.DATABASE,
          "Cannot read the schema version of "
              + settings.redactedUrl()
              + ": "
              + Trestle.oneLine(String.valueOf(e.getMessage())),
          e);
    }
  }
}
