package dev.trestle.cli;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.json.EntityLines;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
      "Write a table's entities as NDJSON, one typed entity per line.",
      "Each line is the Table service's JSON with @odata.type annotations; lines come in PartitionKey and RowKey order."
    })
final class ExportCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "NAME",
      order = 10,
      description = "The table to export.")
  String table;

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
      names = "--account",
      paramLabel = "NAME",
      order = 13,
      description = "The storage account owning the table. Default: devstoreaccount1")
  String account = TableService.DEFAULT_ACCOUNT;

  @Override
  public Integer call() throws IOException {
    DatabaseSettings settings =
        DatabaseSettings.resolve(database.configuration(trestle.environment()), database.flags());
    try (Database db = Database.open(settings, account, Database.Access.READ)) {
      if (db.tables().getTable(table).isEmpty()) {
        throw new CliException(
            ExitCode.DATA, "Table '" + table + "' does not exist in account " + account + ".");
      }
      long count;
      try (Writer writer = open()) {
        count = export(db.tables().tableClient(table), filter, writer);
      }
      trestle.err().println("Exported " + count + " entities from " + table + ".");
      return ExitCode.OK;
    }
  }

  /** Writes every matching entity, page by page; returns how many. */
  static long export(TableClient table, String filter, Writer writer) {
    EntityQuery query = EntityQuery.filter(filter);
    long count = 0;
    try {
      while (true) {
        EntityPage page = table.query(query);
        for (var entity : page.entities()) {
          writer.write(EntityLines.write(entity));
          writer.write('\n');
          count++;
        }
        if (page.next().isEmpty()) {
          writer.flush();
          return count;
        }
        query = query.withContinuation(page.next().get());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Writer open() throws IOException {
    if (out == null || out.toString().equals("-")) {
      return new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)) {
        @Override
        public void close() throws IOException {
          flush(); // leave standard output open
        }
      };
    }
    try {
      return Files.newBufferedWriter(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot write " + out + ": " + e.getMessage() + ".");
    }
  }
}
