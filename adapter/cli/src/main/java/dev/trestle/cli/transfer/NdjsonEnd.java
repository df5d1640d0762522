package dev.trestle.cli.transfer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * NDJSON as a source or sink: one file holding one table, or a folder holding a whole account, one
 * {@code TABLE.ndjson} per table and a {@code manifest.json} naming them (with their entity
 * counts). Entities keep their Timestamp in the lines.
 */
public final class NdjsonEnd implements End {
  public static final String MANIFEST = "manifest.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path folder;
  private final Path file;
  private final String table;

  private NdjsonEnd(Path folder, Path file, String table) {
    this.folder = folder;
    this.file = file;
    this.table = table;
  }

  /** One file ("-": standard input or output) holding the table named. */
  public static NdjsonEnd file(Path file, String table) {
    return new NdjsonEnd(null, file, table);
  }

  /** A folder of one file per table and a manifest. */
  public static NdjsonEnd folder(Path folder) {
    return new NdjsonEnd(folder, null, null);
  }

  @Override
  public List<String> tableNames() {
    return folder == null ? List.of(table) : List.copyOf(manifest().keySet());
  }

  @Override
  public Optional<String> find(String name) {
    return tableNames().stream().filter(t -> t.equalsIgnoreCase(name)).findFirst();
  }

  @Override
  public void read(String name, Position from, Predicate<TableEntity> each) {
    if (folder != null) {
      checkComplete(name);
    }
    NdjsonFile.read(fileOf(name), from, each);
  }

  /**
   * A folder's table file must hold as many entities as the manifest says were exported: a file cut
   * at a line boundary (a copy that stopped, a hand edit) is refused before any of it is read,
   * rather than imported short with success.
   */
  private void checkComplete(String name) {
    Long expected = manifest().get(name);
    long found = entities(fileOf(name));
    if (expected != null && found >= 0 && found != expected) {
      throw new CliException(
          ExitCode.DATA,
          "Table "
              + name
              + ": "
              + fileOf(name)
              + " holds "
              + found
              + " entities where the manifest says "
              + expected
              + ": the file is incomplete or was changed after the export. Nothing of the table"
              + " was imported.");
    }
  }

  /** The file's entity lines, as the manifest counts them; -1 when it cannot be read. */
  private static long entities(Path file) {
    try (Utf8Lines lines = new Utf8Lines(Files.newInputStream(file))) {
      long count = 0;
      for (String line = lines.next(); line != null; line = lines.next()) {
        if (line == Utf8Lines.NOT_UTF8 || !line.isBlank()) {
          count++;
        }
      }
      return count;
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public long estimate(String name) {
    if (folder != null) {
      Long count = manifest().get(name);
      return count == null ? -1 : count;
    }
    return -1;
  }

  @Override
  public Table open(String name, Position from) {
    return NdjsonFile.writer(fileOf(name), from);
  }

  @Override
  public void finished(List<String> tables) {
    if (folder == null) {
      return;
    }
    ObjectNode manifest = JSON.createObjectNode();
    manifest.put("format", "trestle-ndjson");
    manifest.put("version", 1);
    ArrayNode list = manifest.putArray("tables");
    for (String name : tables) {
      ObjectNode entry = list.addObject();
      entry.put("name", name);
      entry.put("file", name + ".ndjson");
      entry.put("entities", lines(fileOf(name)));
    }
    try {
      Files.createDirectories(folder);
      Path temporary = folder.resolve(MANIFEST + ".tmp");
      JSON.writerWithDefaultPrettyPrinter().writeValue(temporary.toFile(), manifest);
      Files.move(
          temporary,
          folder.resolve(MANIFEST),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot write the manifest: " + e.getMessage() + ".");
    }
  }

  @Override
  public boolean keepsTimestamps() {
    return true;
  }

  @Override
  public String describe() {
    return folder != null ? folder.toString() : NdjsonFile.isStandard(file) ? "-" : file.toString();
  }

  private Path fileOf(String name) {
    return folder == null ? file : folder.resolve(name + ".ndjson");
  }

  /** Table name to entity count, in the manifest's order. */
  private Map<String, Long> manifest() {
    Path path = folder.resolve(MANIFEST);
    JsonNode root;
    try {
      root = JSON.readTree(path.toFile());
    } catch (IOException e) {
      throw new CliException(
          ExitCode.DATA,
          "Cannot read "
              + path
              + ": "
              + (Files.exists(path) ? e.getMessage() : "no such file")
              + ".");
    }
    Map<String, Long> tables = new LinkedHashMap<>();
    for (JsonNode entry : root.path("tables")) {
      String name = entry.path("name").asText(null);
      if (name == null || !entry.path("file").asText("").equals(name + ".ndjson")) {
        throw new CliException(
            ExitCode.DATA, path + ": every table needs a name and the file NAME.ndjson.");
      }
      tables.put(name, entry.path("entities").asLong(-1));
    }
    return tables;
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.filter(line -> !line.isBlank()).count();
    } catch (IOException e) {
      return -1;
    }
  }
}
