package dev.trestle.cli.transfer;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import dev.trestle.json.EntityLines;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A table's entities kept in a temporary NDJSON file while the properties and their types are
 * collected, for the sinks that need the whole schema before the first row (a CSV header, a SQL
 * table's columns).
 */
final class EntitySpool implements AutoCloseable {
  private final Path file;
  private final BufferedWriter out;
  private final Map<String, Set<EdmType>> types = new LinkedHashMap<>();
  private long count;
  private TableEntity last;

  EntitySpool() {
    try {
      file = Files.createTempFile("trestle-spool-", ".ndjson");
      out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot write a temporary file: " + e.getMessage());
    }
  }

  void add(TableEntity entity) {
    for (Map.Entry<String, PropertyValue> property : entity.properties().entrySet()) {
      types
          .computeIfAbsent(property.getKey(), k -> EnumSet.noneOf(EdmType.class))
          .add(property.getValue().type());
    }
    try {
      out.write(EntityLines.write(entity));
      out.write('\n');
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot write a temporary file: " + e.getMessage());
    }
    count++;
    last = entity;
  }

  /** Each property's types (in EdmType order), properties in the order first seen. */
  Map<String, Set<EdmType>> types() {
    return types;
  }

  long count() {
    return count;
  }

  TableEntity last() {
    return last;
  }

  /** Hands back every entity added, in order. */
  void replay(Consumer<TableEntity> each) {
    try {
      out.flush();
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          each.accept(EntityLines.read(line));
        }
      }
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot read a temporary file: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    try {
      out.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temporary file left behind is harmless
    }
  }
}
