package dev.trestle.cli;

import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.DatabaseEnd;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.NdjsonEnd;
import dev.trestle.cli.transfer.Sink;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "export",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Write a table's entities as NDJSON, one typed entity per line, or every table of the account",
      "into a folder (--out-dir: one TABLE.ndjson per table and a manifest.json).",
      "Each line is the Table service's JSON with @odata.type annotations and the entity's Timestamp;",
      "lines come in PartitionKey and RowKey order."
    })
final class ExportCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--table",
      paramLabel = "NAME",
      order = 10,
      description = "The table to export; with --out-dir repeatable, default every table.")
  List<String> tables;

  @Option(
      names = "--filter",
      paramLabel = "ODATA",
      order = 11,
      description = "Only entities matching this $filter, e.g. \"PartitionKey eq 'eu'\".")
  String filter;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      order = 12,
      description = "Output file; default standard output.")
  Path out;

  @Option(
      names = "--out-dir",
      paramLabel = "DIR",
      order = 13,
      description = "Write the tables into this folder, one file each, with a manifest.")
  Path outDir;

  @Option(
      names = "--account",
      paramLabel = "NAME",
      order = 14,
      description = "The storage account owning the table. Default: devstoreaccount1")
  String account = TableService.DEFAULT_ACCOUNT;

  @Mixin TransferOptions transfer;

  @Override
  public Integer call() {
    if (outDir == null && (tables == null || tables.size() != 1)) {
      throw new CliException(
          ExitCode.USAGE, "Give one --table to export into a file, or --out-dir DIR for several.");
    }
    if (outDir != null && out != null) {
      throw new CliException(ExitCode.USAGE, "Give --out FILE or --out-dir DIR, not both.");
    }
    if (transfer.resume && outDir == null && NdjsonEndFiles.isStandard(out)) {
      throw new CliException(ExitCode.USAGE, "--resume needs --out FILE or --out-dir DIR.");
    }
    DatabaseSettings settings =
        DatabaseSettings.resolve(database.configuration(trestle.environment()), database.flags());
    try (Database db = Database.open(settings, account, Database.Access.READ)) {
      DatabaseEnd source =
          new DatabaseEnd(
              db.tables(),
              EntityWriter.Mode.UPSERT,
              true,
              settings.redactedUrl() + "#" + account,
              filter);
      List<String> names =
          tables == null || tables.isEmpty()
              ? source.tableNames()
              : tables.stream()
                  .map(
                      table ->
                          source
                              .find(table)
                              .orElseThrow(
                                  () ->
                                      new CliException(
                                          ExitCode.TABLE_NOT_FOUND,
                                          "Table '"
                                              + table
                                              + "' does not exist in account "
                                              + account
                                              + ".")))
                  .toList();
      Sink sink = outDir != null ? NdjsonEnd.folder(outDir) : NdjsonEnd.file(out, names.getFirst());
      transfer.run(trestle, "export", source, sink, names, "Exported");
      return ExitCode.OK;
    }
  }

  /** Standard output or input. */
  static final class NdjsonEndFiles {
    static boolean isStandard(Path file) {
      return file == null || file.toString().equals("-");
    }
  }
}
