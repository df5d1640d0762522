package dev.trestle.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.database.DatabaseConnector;
import dev.trestle.store.H2IndexRepair;
import dev.trestle.store.SchemaMigrator;

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
    TableService tables;
    try {
      tables =
          TableService.builder()
              .dataSource(dataSource)
              .account(account)
              .migrate(access == Access.READ_WRITE)
              .build();
    } catch (IllegalStateException e) {
      dataSource.close();
      throw new CliException(ExitCode.USAGE, Trestle.oneLine(e.getMessage()), e);
    } catch (RuntimeException e) {
      dataSource.close();
      throw new CliException(
          ExitCode.DATABASE,
          "Cannot prepare the database "
              + settings.redactedUrl()
              + ": "
              + Trestle.oneLine(String.valueOf(e.getMessage())),
          e);
    }
    repairOrClose(repair, tables, dataSource, settings);
    return new Database(tables, dataSource);
  }

  private static void repairOrClose(
      H2IndexRepair repair,
      TableService tables,
      HikariDataSource dataSource,
      DatabaseSettings settings) {
    try {
      repair.afterMigrations(dataSource);
    } catch (RuntimeException e) {
      tables.close();
      dataSource.close();
      throw new CliException(
          ExitCode.DATABASE,
          "Cannot prepare the database "
              + settings.redactedUrl()
              + ": "
              + Trestle.oneLine(String.valueOf(e.getMessage())),
          e);
    }
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
