package dev.trestle.cli;

import dev.trestle.TableClient;
import dev.trestle.TableService;
import dev.trestle.cli.config.DatabaseSettings;
import dev.trestle.cli.transfer.EntityWriter;
import dev.trestle.json.EntityLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
      "Read NDJSON entities (as written by export) into a table, creating it when missing.",
      "Consecutive entities of one partition are written in transactions of up to 100."
    })
final class ImportCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "NAME",
      order = 10,
      description = "The table to write to.")
  String table;

  @Option(
      names = "--in",
      paramLabel = "FILE",
      order = 11,
      description = "Input file; default standard input.")
  Path in;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      order = 12,
      description =
          "upsert (insert or replace, default), merge (insert or merge) or insert (stop at an existing entity).")
  EntityWriter.Mode mode = EntityWriter.Mode.UPSERT;

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
    try (BufferedReader reader = open();
        Database db = Database.open(settings, account, Database.Access.READ_WRITE)) {
      db.tables().createTableIfNotExists(table);
      long count = importLines(reader, db.tables().tableClient(table), mode);
      trestle.err().println("Imported " + count + " entities into " + table + ".");
      return ExitCode.OK;
    }
  }

  /** Imports every non-blank line; a bad line stops the import with its line number. */
  static long importLines(BufferedReader reader, TableClient table, EntityWriter.Mode mode) {
    EntityWriter writer = new EntityWriter(table, mode);
    long lineNumber = 0;
    try {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        try {
          writer.add(EntityLines.read(line));
        } catch (EntityLines.MalformedEntityException e) {
          writer.flush();
          throw new CliException(
              ExitCode.DATA,
              "Line "
                  + lineNumber
                  + ": "
                  + e.getMessage()
                  + " ("
                  + writer.written()
                  + " entities were written before it).");
        }
      }
      writer.close();
      return writer.written();
    } catch (EntityWriter.WriteFailedException e) {
      throw new CliException(ExitCode.DATA, e.getMessage() + ".", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private BufferedReader open() throws IOException {
    if (in == null || in.toString().equals("-")) {
      return new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }
    try {
      return Files.newBufferedReader(in, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CliException(ExitCode.DATA, "Cannot read " + in + ": no such file.");
    }
  }
}
