package dev.trestle.cli;

import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.CsvEnd;
import dev.trestle.cli.transfer.DatabaseEnd;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.NdjsonEnd;
import dev.trestle.cli.transfer.Sink;
import dev.trestle.cli.transfer.SqlTableSink;
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
      "lines come in PartitionKey and RowKey order.",
      "--format csv (or an --out FILE.csv) writes Azure Storage Explorer's CSV instead; --to-sql URL",
      "writes each table into a plain relational table of a PostgreSQL or H2 database."
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

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      order = 15,
      description =
          "ndjson or csv (Storage Explorer's). Default: csv for an --out FILE.csv, else ndjson.")
  FileFormat format;

  @Option(
      names = "--to-sql",
      paramLabel = "JDBC_URL",
      order = 16,
      description =
          "Write into relational tables of this PostgreSQL or H2 database: one typed column per"
              + " property, inferred from the data.")
  String toSql;

  @Option(
      names = "--sql-table",
      paramLabel = "NAME",
      order = 17,
      description =
          "With --to-sql and one --table: the relational table's name. Default: the table's.")
  String sqlTable;

  @Option(
      names = "--sql-replace",
      order = 18,
      description = "With --to-sql: drop a relational table of the same name first.")
  boolean sqlReplace;

  @Mixin SqlConnectionOptions sql;

  @Mixin TransferOptions transfer;

  @Override
  public Integer call() {
    if (toSql != null && (out != null || outDir != null || format != null)) {
      throw new CliException(
          ExitCode.USAGE, "Give --to-sql URL or a file (--out, --out-dir, --format), not both.");
    }
    if (sqlTable != null && (toSql == null || tables == null || tables.size() != 1)) {
      throw new CliException(ExitCode.USAGE, "--sql-table needs --to-sql and one --table.");
    }
    FileFormat fileFormat = FileFormat.of(format, out);
    if (fileFormat == FileFormat.CSV && outDir != null) {
      throw new CliException(
          ExitCode.USAGE, "A CSV file holds one table: give one --table and --out FILE.csv.");
    }
    if (toSql == null && outDir == null && (tables == null || tables.size() != 1)) {
      throw new CliException(
          ExitCode.USAGE, "Give one --table to export into a file, or --out-dir DIR for several.");
    }
    if (outDir != null && out != null) {
      throw new CliException(ExitCode.USAGE, "Give --out FILE or --out-dir DIR, not both.");
    }
    if (transfer.resume && outDir == null && toSql == null && NdjsonEndFiles.isStandard(out)) {
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
      Sink sink =
          toSql != null
              ? new SqlTableSink(toSql, sql.user, sql.password, sqlTable, sqlReplace, trestle.err())
              : outDir != null
                  ? NdjsonEnd.folder(outDir)
                  : fileFormat == FileFormat.CSV
                      ? new CsvEnd(out, names.getFirst())
                      : NdjsonEnd.file(out, names.getFirst());
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
