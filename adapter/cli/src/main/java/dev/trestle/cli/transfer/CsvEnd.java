package dev.trestle.cli.transfer;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import dev.trestle.edm.EdmDateTime;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One table as Azure Storage Explorer's CSV: a header {@code
 * PartitionKey,RowKey,Timestamp,P,P@type,...} and one record per entity. A property is absent where
 * its value and type cells are both empty; a value without a type is a String. Written CSV is
 * committed only when complete (its header needs every property), so a resumed export writes an
 * unfinished table again.
 */
public final class CsvEnd implements End {
  private static final String TYPE = "@type";
  private final Path file;
  private final String table;

  public CsvEnd(Path file, String table) {
    this.file = file;
    this.table = table;
  }

  /** Whether a file name asks for this format. */
  public static boolean named(Path file) {
    return file != null && file.getFileName().toString().toLowerCase().endsWith(".csv");
  }

  @Override
  public List<String> tableNames() {
    return List.of(table);
  }

  @Override
  public Optional<String> find(String name) {
    return table.equalsIgnoreCase(name) ? Optional.of(table) : Optional.empty();
  }

  @Override
  public void read(String name, Position from, Predicate<TableEntity> each) {
    try (Reader reader = open()) {
      CsvRecords records = new CsvRecords(reader);
      List<String> header = records.next();
      if (header == null) {
        return;
      }
      if (!header.isEmpty() && header.getFirst().startsWith("\uFEFF")) {
        header.set(0, header.getFirst().substring(1));
      }
      Columns columns = new Columns(header);
      long record = 0;
      long entities = 0;
      for (List<String> fields = records.next(); fields != null; fields = records.next()) {
        record++;
        // a blank line is no entity, so that a resume counts as the first run did
        if (fields.size() == 1 && fields.getFirst().isEmpty() || ++entities <= from.entities()) {
          continue;
        }
        if (fields.size() > header.size()) {
          // an unquoted comma shifts every later cell: refused, not imported into wrong columns
          throw new NdjsonFile.UnreadableEntityException(
              "Record "
                  + record
                  + " of "
                  + describe()
                  + ": "
                  + fields.size()
                  + " fields, the header has "
                  + header.size()
                  + ".");
        }
        TableEntity entity;
        try {
          entity = columns.entity(fields);
        } catch (RuntimeException e) {
          throw new NdjsonFile.UnreadableEntityException(
              "Record " + record + " of " + describe() + ": " + e.getMessage() + ".");
        }
        if (!each.test(entity)) {
          return;
        }
      }
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot read " + describe() + ": " + e.getMessage());
    }
  }

  private Reader open() throws IOException {
    try {
      return new BufferedReader(
          new InputStreamReader(
              NdjsonFile.isStandard(file) ? System.in : Files.newInputStream(file),
              StandardCharsets.UTF_8),
          1 << 16);
    } catch (NoSuchFileException e) {
      throw new CliException(ExitCode.DATA, "Cannot read " + file + ": no such file.");
    }
  }

  /** The header's meaning: where the keys, the Timestamp and each property's two cells are. */
  private static final class Columns {
    private int partitionKey = -1;
    private int rowKey = -1;
    private int timestamp = -1;
    private final List<String> names = new ArrayList<>();
    private final List<Integer> values = new ArrayList<>();
    private final List<Integer> types = new ArrayList<>();

    Columns(List<String> header) {
      for (int i = 0; i < header.size(); i++) {
        String column = header.get(i);
        switch (column) {
          case "PartitionKey" -> partitionKey = i;
          case "RowKey" -> rowKey = i;
          case "Timestamp" -> timestamp = i;
          default -> {
            if (!column.endsWith(TYPE)) {
              names.add(column);
              values.add(i);
              types.add(header.indexOf(column + TYPE));
            }
          }
        }
      }
      if (partitionKey < 0 || rowKey < 0) {
        throw new CliException(
            ExitCode.DATA, "The CSV header needs PartitionKey and RowKey columns: " + header + ".");
      }
    }

    TableEntity entity(List<String> fields) {
      TableEntity.Builder entity =
          TableEntity.builder(cell(fields, partitionKey), cell(fields, rowKey));
      String stamp = cell(fields, timestamp);
      if (!stamp.isEmpty()) {
        entity.timestamp(EdmDateTime.parse(stamp));
      }
      for (int p = 0; p < names.size(); p++) {
        String value = cell(fields, values.get(p));
        String typeCell = cell(fields, types.get(p));
        EdmType type = CsvValues.type(typeCell);
        if (type == null && value.isEmpty()) {
          continue;
        }
        try {
          entity.put(names.get(p), CsvValues.parse(type == null ? EdmType.STRING : type, value));
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(
              names.get(p) + " '" + value + "' is not " + type.odataName(), e);
        }
      }
      return entity.build();
    }

    private static String cell(List<String> fields, int index) {
      return index >= 0 && index < fields.size() ? fields.get(index) : "";
    }
  }

  @Override
  public Table open(String name, Position from) {
    return new Spooled();
  }

  /** Collects the table, then writes the header and the records. */
  private final class Spooled implements Table {
    private final EntitySpool spool = new EntitySpool();
    private Committed committed = Committed.NONE;

    @Override
    public void add(TableEntity entity) {
      spool.add(entity);
    }

    @Override
    public Committed committed() {
      return committed;
    }

    @Override
    public void close() {
      try (spool) {
        write();
        committed = new Committed(spool.count(), spool.last());
      } catch (IOException e) {
        throw new CliException(ExitCode.DATA, "Cannot write " + describe() + ": " + e.getMessage());
      }
    }

    private void write() throws IOException {
      List<String> properties = new ArrayList<>(spool.types().keySet());
      List<String> header = new ArrayList<>(List.of("PartitionKey", "RowKey", "Timestamp"));
      for (String property : properties) {
        header.add(property);
        header.add(property + TYPE);
      }
      boolean standard = NdjsonFile.isStandard(file);
      if (!standard && file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      Writer out =
          new BufferedWriter(
              new OutputStreamWriter(
                  standard ? NdjsonFile.standardOutput() : Files.newOutputStream(file),
                  StandardCharsets.UTF_8),
              1 << 16);
      try {
        CsvRecords.write(out, header);
        List<String> fields = new ArrayList<>(header.size());
        spool.replay(
            entity -> {
              fields.clear();
              fields.add(entity.partitionKey());
              fields.add(entity.rowKey());
              fields.add(
                  entity.timestamp() == null
                      ? ""
                      : EdmDateTime.formatSevenDigits(entity.timestamp()));
              Map<String, PropertyValue> values = entity.properties();
              for (String property : properties) {
                PropertyValue value = values.get(property);
                fields.add(value == null ? "" : CsvValues.text(value));
                fields.add(value == null ? "" : CsvValues.typeCell(value));
              }
              try {
                CsvRecords.write(out, fields);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      } finally {
        if (standard) {
          out.flush();
        } else {
          out.close();
        }
      }
    }
  }

  @Override
  public boolean keepsTimestamps() {
    return true;
  }

  @Override
  public String describe() {
    return NdjsonFile.isStandard(file) ? "-" : file.toString();
  }
}
