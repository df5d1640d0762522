package dev.trestle.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.database.DatabaseConnector;
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
    HikariDataSource dataSource = DatabaseConnector.open(settings, null);
    if (access == Access.READ && SchemaMigrator.version(dataSource).isEmpty()) {
      dataSource.close();
      throw new CliException(
          ExitCode.DATABASE,
          "There are no Trestle tables in "
              + settings.redactedUrl()
              + " (is it the right database and schema?).");
    }
    try {
      TableService tables =
          TableService.builder()
              .dataSource(dataSource)
              .account(account)
              .migrate(access == Access.READ_WRITE)
              .build();
      return new Database(tables, dataSource);
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
