package dev.trestle.cli;

import dev.trestle.TableService;
import dev.trestle.cli.config.Configuration;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.EntitySink;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.RemoteTables;
import dev.trestle.cli.transfer.TableEnd;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "copy",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Copy tables between databases and Table endpoints: H2 to PostgreSQL, Azure to Trestle, and back.",
      "The source is --db (or TRESTLE_DB), or --from-endpoint; the target is --to-db or --to-endpoint.",
      "Entities go in entity-group transactions of up to 100 per partition ($batch into an endpoint);",
      "throttling and dropped connections are retried with back-off."
    })
final class CopyCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions source;

  @Option(
      names = "--from-endpoint",
      paramLabel = "URL",
      order = 30,
      description =
          "Read from this Table endpoint instead of --db, e.g. https://ACCOUNT.table.core.windows.net "
              + "or http://127.0.0.1:10002/devstoreaccount1.")
  String fromEndpoint;

  @ArgGroup(exclusive = true, order = 31)
  Credentials from;

  @Option(
      names = "--to-db",
      paramLabel = "JDBC_URL",
      order = 40,
      description = "Write into this database.")
  String targetUrl;

  @Option(
      names = "--to-db-user",
      paramLabel = "USER",
      order = 41,
      description = "The target database's user.")
  String targetUser;

  @Option(
      names = "--to-db-password",
      paramLabel = "PASSWORD",
      order = 42,
      description = "The target database's password.")
  String targetPassword;

  @Option(
      names = "--to-endpoint",
      paramLabel = "URL",
      order = 43,
      description = "Write into this Table endpoint.")
  String toEndpoint;

  @ArgGroup(exclusive = true, order = 44)
  TargetCredentials to;

  @Option(
      names = "--table",
      paramLabel = "NAME",
      order = 50,
      description = "A table to copy; repeatable. Default: every table of the account.")
  List<String> tables;

  @Option(
      names = "--account",
      paramLabel = "NAME",
      order = 51,
      description = "The storage account to copy in databases. Default: devstoreaccount1")
  String account = TableService.DEFAULT_ACCOUNT;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      order = 52,
      description = "upsert (default), merge or insert, as for import.")
  EntityWriter.Mode mode = EntityWriter.Mode.UPSERT;

  static final class Credentials {
    @Option(
        names = "--from-key",
        paramLabel = "BASE64",
        description = "Account key of --from-endpoint.")
    String key;

    @Option(
        names = "--from-sas",
        paramLabel = "TOKEN",
        description = "SAS token for --from-endpoint.")
    String sas;
  }

  static final class TargetCredentials {
    @Option(
        names = "--to-key",
        paramLabel = "BASE64",
        description = "Account key of --to-endpoint.")
    String key;

    @Option(names = "--to-sas", paramLabel = "TOKEN", description = "SAS token for --to-endpoint.")
    String sas;
  }

  @Override
  public Integer call() {
    if ((targetUrl == null) == (toEndpoint == null)) {
      throw new CliException(
          ExitCode.USAGE, "Give exactly one target: --to-db JDBC_URL or --to-endpoint URL.");
    }
    List<AutoCloseable> opened = new ArrayList<>();
    try {
      TableEnd fromEnd =
          fromEndpoint != null
              ? new TableEnd.Endpoint(
                  remote(
                      fromEndpoint,
                      from == null ? null : from.key,
                      from == null ? null : from.sas,
                      "--from"))
              : database(
                  DatabaseSettings.resolve(
                      source.configuration(trestle.environment()), source.flags()),
                  Database.Access.READ,
                  opened);
      TableEnd toEnd =
          toEndpoint != null
              ? new TableEnd.Endpoint(
                  remote(
                      toEndpoint, to == null ? null : to.key, to == null ? null : to.sas, "--to"))
              : database(
                  DatabaseSettings.resolve(
                      Configuration.load(null, Map.of()),
                      new DatabaseSettings.DatabaseFlags(
                          targetUrl, targetUser, targetPassword, null, null, null)),
                  Database.Access.READ_WRITE,
                  opened);
      // listed names are already as created; named ones are looked up (case-insensitively) once
      // each
      List<String> names =
          tables == null || tables.isEmpty()
              ? fromEnd.tableNames()
              : tables.stream().map(table -> asCreated(fromEnd, table)).toList();
      long total = 0;
      for (String name : names) {
        total += copy(fromEnd, toEnd, name, mode);
      }
      trestle.err().println("Copied " + total + " entities in " + names.size() + " table(s).");
      return ExitCode.OK;
    } catch (RemoteTables.RemoteException e) {
      throw new CliException(
          e.status() == 0 ? ExitCode.DATABASE : ExitCode.DATA, e.getMessage() + ".", e);
    } finally {
      for (AutoCloseable closeable : opened.reversed()) {
        try {
          closeable.close();
        } catch (Exception ignored) {
          // closing after a failure: the failure is what matters
        }
      }
    }
  }

  private static String asCreated(TableEnd from, String table) {
    return from.find(table)
        .orElseThrow(
            () ->
                new CliException(
                    ExitCode.DATA, "Table '" + table + "' does not exist in the source."));
  }

  /**
   * Copies one table, named as created in the source, keeping that casing in the target; returns
   * the count.
   */
  static long copy(TableEnd from, TableEnd to, String name, EntityWriter.Mode mode) {
    EntitySink sink = to.writer(name, mode);
    try {
      from.read(name, sink::add);
      sink.close();
      return sink.written();
    } catch (EntityWriter.WriteFailedException e) {
      throw new CliException(ExitCode.DATA, e.getMessage() + ".", e);
    }
  }

  private TableEnd database(
      DatabaseSettings settings, Database.Access access, List<AutoCloseable> opened) {
    Database db = Database.open(settings, account, access);
    opened.add(db);
    return new TableEnd.Database(db.tables());
  }

  private static RemoteTables remote(String endpoint, String key, String sas, String prefix) {
    try {
      if (key != null) {
        return RemoteTables.withKey(endpoint, key);
      }
      if (sas != null) {
        return RemoteTables.withSas(endpoint, sas);
      }
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, prefix + "-endpoint: " + e.getMessage() + ".");
    }
    throw new CliException(
        ExitCode.USAGE,
        "Give " + prefix + "-key or " + prefix + "-sas for " + prefix + "-endpoint.");
  }
}
