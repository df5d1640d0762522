package dev.trestle.cli;

import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.DatabaseEnd;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.NdjsonEnd;
import dev.trestle.cli.transfer.Source;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "import",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Read NDJSON entities (as written by export) into a table, creating it when missing, or a",
      "folder written by export --out-dir into its tables. Entities keep the Timestamp of their",
      "line unless --no-keep-timestamps; they go in transactions of 1,000."
    })
final class ImportCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--table",
      paramLabel = "NAME",
      order = 10,
      description = "The table to write to (with --in).")
  String table;

  @Option(
      names = "--in",
      paramLabel = "FILE",
      order = 11,
      description = "Input file; default standard input.")
  Path in;

  @Option(
      names = "--in-dir",
      paramLabel = "DIR",
      order = 12,
      description = "Import every table of this folder (its manifest.json names them).")
  Path inDir;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      order = 13,
      description =
          "upsert (insert or replace, default), merge (insert or merge) or insert (stop at an existing entity).")
  EntityWriter.Mode mode = EntityWriter.Mode.UPSERT;

  @Option(
      names = "--account",
      paramLabel = "NAME",
      order = 14,
      description = "The storage account owning the table. Default: devstoreaccount1")
  String account = TableService.DEFAULT_ACCOUNT;

  @Mixin TransferOptions transfer;

  @Override
  public Integer call() {
    if ((inDir == null) == (table == null)) {
      throw new CliException(
          ExitCode.USAGE, "Give --table NAME (reading --in or standard input) or --in-dir DIR.");
    }
    if (transfer.resume && inDir == null && ExportCommand.NdjsonEndFiles.isStandard(in)) {
      throw new CliException(ExitCode.USAGE, "--resume needs --in FILE or --in-dir DIR.");
    }
    Source source = inDir != null ? NdjsonEnd.folder(inDir) : NdjsonEnd.file(in, table);
    List<String> names = source.tableNames();
    DatabaseSettings settings =
        DatabaseSettings.resolve(database.configuration(trestle.environment()), database.flags());
    try (Database db = Database.open(settings, account, Database.Access.READ_WRITE)) {
      DatabaseEnd sink =
          new DatabaseEnd(
              db.tables(), mode, transfer.keepTimestamps, settings.redactedUrl() + "#" + account);
      transfer.run(trestle, "import", source, sink, names, "Imported");
      return ExitCode.OK;
    } catch (EntityWriter.WriteFailedException e) {
      throw new CliException(ExitCode.DATA, e.getMessage() + ".", e);
    }
  }
}
