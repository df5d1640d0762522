package dev.trestle.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.database.DatabaseConnector;
import dev.trestle.store.H2IndexRepair;
import dev.trestle.store.NewerSchemaException;
import dev.trestle.store.SchemaMigrator;
import javax.sql.DataSource;

/** A table service over a pool this command opened; closing it closes both. */
record Database(TableService tables, HikariDataSource dataSource) implements AutoCloseable {

  /**
   * What the command does with the database: read only, or also write (and so bring the schema up
   * to date).
   */
  enum Access {
    READ,
    READ_WRITE
  }

  /**
   * Waits for the database as configured and serves {@code account}. A database that is only read
   * is never migrated, so exporting from a production database needs no schema rights.
   */
  static Database open(DatabaseSettings settings, String account, Access access) {
    // Before the pool opens the file: H2 marks it clean again when it closes it, so even a file
    // only read (an export's source) is repaired, or the next command would not know.
    H2IndexRepair repair = H2IndexRepair.beforeOpening(settings.jdbcUrl());
    HikariDataSource dataSource = DatabaseConnector.open(settings, null);
    if (access == Access.READ && SchemaMigrator.version(dataSource).isEmpty()) {
      dataSource.close();
      throw new CliException(
          ExitCode.DATABASE,
          "There are no Trestle tables in "
              + settings.redactedUrl()
              + " (is it the right database and schema?).");
    }
    if (access == Access.READ && !SchemaMigrator.upToDate(dataSource)) {
      String version = SchemaMigrator.version(dataSource).orElse("none");
      dataSource.close();
      throw new CliException(
          ExitCode.DATABASE,
          "The schema of "
              + settings.redactedUrl()
              + " is at version "
              + version
              + ", older than this Trestle's: run `trestle migrate` with the same --db first (a"
              + " command that only reads never changes the schema).");
    }
    TableService tables;
    try {
      tables =
          TableService.builder()
              .dataSource(dataSource)
              .account(account)
              .migrate(access == Access.READ_WRITE)
              .scalarStore(settings.scalarStore())
              .build();
    } catch (NewerSchemaException e) {
      dataSource.close();
      throw new CliException(ExitCode.DATABASE, e.getMessage(), e);
    } catch (IllegalStateException e) {
      dataSource.close();
      throw new CliException(ExitCode.USAGE, Trestle.oneLine(e.getMessage()), e);
    } catch (RuntimeException e) {
      dataSource.close();
      throw cannotPrepare(settings, e);
    }
    try {
      repair(repair, dataSource, settings);
    } catch (CliException e) {
      tables.close();
      dataSource.close();
      throw e;
    }
    return new Database(tables, dataSource);
  }

  /**
   * Rebuilds what an H2 file a kill left needs (nothing for any other database); its failure is the
   * database's.
   */
  static void repair(H2IndexRepair repair, DataSource dataSource, DatabaseSettings settings) {
    try {
      repair.afterMigrations(dataSource);
    } catch (RuntimeException e) {
      throw cannotPrepare(settings, e);
    }
  }

  private static CliException cannotPrepare(DatabaseSettings settings, RuntimeException e) {
    return new CliException(
        ExitCode.DATABASE,
        "Cannot prepare the database "
            + settings.redactedUrl()
            + ": "
            + Trestle.oneLine(String.valueOf(e.getMessage())),
        e);
  }

  @Override
  public void close() {
    try {
      tables.close();
    } finally {
      dataSource.close();
    }
  }
}
