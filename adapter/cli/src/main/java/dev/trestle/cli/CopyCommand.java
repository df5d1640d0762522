package dev.trestle.cli;

import dev.trestle.TableService;
import dev.trestle.cli.config.Configuration;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.DatabaseEnd;
import dev.trestle.cli.transfer.End;
import dev.trestle.cli.transfer.EndpointEnd;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.NdjsonEnd;
import dev.trestle.cli.transfer.RemoteTables;
import dev.trestle.cli.transfer.Source;
import java.nio.file.Path;
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
      "The source is --db (or TRESTLE_DB), --from-endpoint",
      "or --from-dir; the target is --to-db, --to-endpoint or --to-dir. A database is written in",
      "transactions of 1,000 entities keeping Timestamps; an endpoint in $batch groups of up to 100,",
      "several in flight. SIGTERM stops after a checkpoint (exit 8); --resume continues."
    })
class CopyCommand implements Callable<Integer> {
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
      names = "--from-dir",
      paramLabel = "DIR",
      order = 32,
      description = "Read the tables of a folder written by export --out-dir (or copy --to-dir).")
  Path fromDir;

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
      names = "--to-scalar-store",
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 43,
      description =
          "PostgreSQL: a target database whose schema this copy creates gets the scalar store (see"
              + " serve --help). Default: false")
  Boolean targetScalarStore;

  @Option(
      names = "--to-endpoint",
      paramLabel = "URL",
      order = 43,
      description = "Write into this Table endpoint.")
  String toEndpoint;

  @ArgGroup(exclusive = true, order = 44)
  TargetCredentials to;

  @Option(
      names = "--to-dir",
      paramLabel = "DIR",
      order = 45,
      description = "Write each table as DIR/TABLE.ndjson, with DIR/manifest.json naming them.")
  Path toDir;

  @Option(
      names = "--lanes",
      paramLabel = "N",
      order = 53,
      description = "Entity-group batches in flight at once into an endpoint. Default: 8")
  int lanes = 8;

  @Mixin TransferOptions transfer;

  @Option(
      names = "--verify",
      order = 54,
      description = "After the copy, compare source and target as the verify command does.")
  boolean verify;

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
    return withEnds(
        Database.Access.READ_WRITE,
        (fromEnd, toEnd, names) -> {
          transfer.run(trestle, "copy", fromEnd, toEnd, names, "Copied");
          if (!verify) {
            return ExitCode.OK;
          }
          return VerifyCommand.verify(
              trestle,
              fromEnd,
              toEnd,
              names,
              !(toEnd instanceof EndpointEnd)
                  && transfer.keepTimestamps
                  && !(fromEnd instanceof EndpointEnd));
        });
  }

  /** What runs between the ends the flags name: a copy, a verify. */
  interface EndsWork {
    int run(End fromEnd, End toEnd, List<String> tableNames);
  }

  /**
   * Checks the flags, opens the source and the target, runs {@code work} over the tables (those
   * named, looked up case-insensitively once each, else all), and closes both ends.
   */
  int withEnds(Database.Access targetAccess, EndsWork work) {
    checkEnds();
    List<AutoCloseable> opened = new ArrayList<>();
    try {
      End fromEnd = openSource(opened);
      End toEnd = openTarget(opened, targetAccess);
      List<String> names =
          tables == null || tables.isEmpty()
              ? fromEnd.tableNames()
              : tables.stream().map(table -> asCreated(fromEnd, table)).toList();
      return work.run(fromEnd, toEnd, names);
    } catch (RemoteTables.RemoteException e) {
      throw remoteFailure(e);
    } catch (EntityWriter.WriteFailedException e) {
      throw new CliException(ExitCode.DATA, CliException.sentence(e.getMessage()), e);
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

  /** Exactly one target, at most one source flag. */
  void checkEnds() {
    int targets =
        (targetUrl != null ? 1 : 0) + (toEndpoint != null ? 1 : 0) + (toDir != null ? 1 : 0);
    if (targets != 1) {
      throw new CliException(
          ExitCode.USAGE,
          "Give exactly one target: --to-db JDBC_URL, --to-endpoint URL or --to-dir DIR.");
    }
    if (fromEndpoint != null && fromDir != null) {
      throw new CliException(ExitCode.USAGE, "Give one source: --from-endpoint or --from-dir.");
    }
  }

  /** The source the flags name: --from-endpoint, --from-dir, else the database of --db. */
  End openSource(List<AutoCloseable> opened) {
    End fromEnd;
    if (fromEndpoint != null) {
      fromEnd =
          new EndpointEnd(
              remote(
                  fromEndpoint,
                  from == null ? null : from.key,
                  from == null ? null : from.sas,
                  "--from"),
              mode,
              lanes);
    } else if (fromDir != null) {
      fromEnd = NdjsonEnd.folder(fromDir);
    } else {
      DatabaseSettings settings =
          DatabaseSettings.resolve(source.configuration(trestle.environment()), source.flags());
      fromEnd =
          new DatabaseEnd(
              database(settings, Database.Access.READ, opened),
              mode,
              transfer.keepTimestamps,
              settings.redactedUrl() + "#" + account);
    }
    return fromEnd;
  }

  /** The target the flags name: --to-endpoint, --to-dir or --to-db. */
  End openTarget(List<AutoCloseable> opened, Database.Access access) {
    End toEnd;
    if (toEndpoint != null) {
      toEnd =
          new EndpointEnd(
              remote(toEndpoint, to == null ? null : to.key, to == null ? null : to.sas, "--to"),
              mode,
              lanes);
    } else if (toDir != null) {
      toEnd = NdjsonEnd.folder(toDir);
    } else {
      DatabaseSettings settings =
          DatabaseSettings.resolve(
              Configuration.load(null, Map.of()),
              new DatabaseSettings.DatabaseFlags(
                  targetUrl, targetUser, targetPassword, null, null, null, targetScalarStore));
      toEnd =
          new DatabaseEnd(
              database(settings, access, opened),
              mode,
              transfer.keepTimestamps,
              settings.redactedUrl() + "#" + account);
    }
    return toEnd;
  }

  /** An endpoint's refusal as the CLI reports it: unreachable, credentials, missing table. */
  static CliException remoteFailure(RemoteTables.RemoteException e) {
    if (e.status() == 0) {
      return new CliException(ExitCode.DATABASE, CliException.sentence(e.getMessage()), e);
    }
    if (e.status() == 403 || e.status() == 401) {
      return new CliException(
          ExitCode.AUTHENTICATION,
          e.getMessage()
              + ": the endpoint refused the credentials (check the account key or SAS token, and"
              + " that the URL names the account they belong to).",
          e);
    }
    if (e.status() == 404 && "TableNotFound".equals(e.errorCode())) {
      return new CliException(ExitCode.TABLE_NOT_FOUND, CliException.sentence(e.getMessage()), e);
    }
    return new CliException(ExitCode.DATA, CliException.sentence(e.getMessage()), e);
  }

  static String asCreated(Source from, String table) {
    return from.find(table)
        .orElseThrow(
            () ->
                new CliException(
                    ExitCode.TABLE_NOT_FOUND,
                    "Table '" + table + "' does not exist in the source."));
  }

  private TableService database(
      DatabaseSettings settings, Database.Access access, List<AutoCloseable> opened) {
    Database db = Database.open(settings, account, access);
    opened.add(db);
    return db.tables();
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
