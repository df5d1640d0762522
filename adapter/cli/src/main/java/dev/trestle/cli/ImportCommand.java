package dev.trestle.cli;

import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.CsvEnd;
import dev.trestle.cli.transfer.DatabaseEnd;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.cli.transfer.NdjsonEnd;
import dev.trestle.cli.transfer.Source;
import dev.trestle.cli.transfer.SqlQuerySource;
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
      "line unless --no-keep-timestamps; they go in transactions of 1,000.",
      "--format csv (or an --in FILE.csv) reads Azure Storage Explorer's CSV; --from-sql URL",
      "--query SQL reads the rows of a query on any JDBC database as typed entities."
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

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      order = 15,
      description =
          "ndjson or csv (Storage Explorer's). Default: csv for an --in FILE.csv, else ndjson.")
  FileFormat format;

  @Option(
      names = "--from-sql",
      paramLabel = "JDBC_URL",
      order = 16,
      description = "Read the rows of --query on this JDBC database (with --table).")
  String fromSql;

  @Option(
      names = "--query",
      paramLabel = "SQL",
      order = 17,
      description = "With --from-sql: the query; each column becomes a typed property.")
  String query;

  @Option(
      names = "--partition-key",
      paramLabel = "COLUMN|EXPR",
      order = 18,
      description =
          "With --from-sql: the PartitionKey's column or SQL expression. Default: PartitionKey.")
  String partitionKey;

  @Option(
      names = "--row-key",
      paramLabel = "COLUMN|EXPR",
      order = 19,
      description = "With --from-sql: the RowKey's column or SQL expression. Default: RowKey.")
  String rowKey;

  @Option(
      names = "--fetch-size",
      paramLabel = "ROWS",
      order = 20,
      description = "With --from-sql: rows fetched per round trip. Default: 10000.")
  int fetchSize = 10_000;

  @Mixin SqlConnectionOptions sql;

  @Mixin TransferOptions transfer;

  @Override
  public Integer call() {
    if (fromSql != null) {
      if (table == null || query == null || in != null || inDir != null || format != null) {
        throw new CliException(
            ExitCode.USAGE, "--from-sql URL needs --table NAME and --query SQL, and no file.");
      }
    } else if (query != null || partitionKey != null || rowKey != null) {
      throw new CliException(
          ExitCode.USAGE, "--query, --partition-key and --row-key go with --from-sql URL.");
    }
    FileFormat fileFormat = FileFormat.of(format, in);
    if (fileFormat == FileFormat.CSV && inDir != null) {
      throw new CliException(ExitCode.USAGE, "A CSV file holds one table: give --table and --in.");
    }
    if ((inDir == null) == (table == null)) {
      throw new CliException(
          ExitCode.USAGE, "Give --table NAME (reading --in or standard input) or --in-dir DIR.");
    }
    if (transfer.resume
        && inDir == null
        && fromSql == null
        && ExportCommand.NdjsonEndFiles.isStandard(in)) {
      throw new CliException(ExitCode.USAGE, "--resume needs --in FILE or --in-dir DIR.");
    }
    Source source =
        fromSql != null
            ? new SqlQuerySource(
                fromSql, sql.user, sql.password, query, partitionKey, rowKey, fetchSize, table)
            : inDir != null
                ? NdjsonEnd.folder(inDir)
                : fileFormat == FileFormat.CSV ? new CsvEnd(in, table) : NdjsonEnd.file(in, table);
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
      throw new CliException(ExitCode.DATA, CliException.sentence(e.getMessage()), e);
    }
  }
}
