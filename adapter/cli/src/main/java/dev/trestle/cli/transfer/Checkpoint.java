package dev.trestle.cli.transfer;

import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A transfer's progress on disk: the tables finished, and the position committed in the current
 * one. Written after every commit (to a temporary file, then moved over the old one), so that a
 * stop at any moment, SIGKILL included, leaves the last commit's position or the one before it: a
 * resume re-writes at most what one commit held, which upserts make harmless.
 */
public final class Checkpoint {
  private final Path file;
  private final String transfer;
  private final List<String> done = new ArrayList<>();
  private String table;
  private Position position = Position.START;

  private Checkpoint(Path file, String transfer) {
    this.file = file;
    this.transfer = transfer;
  }

  /** A new checkpoint for the transfer described (source and target), replacing any old one. */
  public static Checkpoint fresh(Path file, String transfer) {
    return new Checkpoint(file, transfer);
  }

  /** The checkpoint a stopped run left; it must be of the same transfer. */
  public static Checkpoint resume(Path file, String transfer) {
    Properties saved = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      saved.load(in);
    } catch (NoSuchFileException e) {
      throw new CliException(
          ExitCode.USAGE,
          "--resume: no checkpoint at "
              + file
              + " (a finished transfer removes it; give --checkpoint where the stopped run wrote it).");
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot read " + file + ": " + e.getMessage() + ".");
    }
    if (!transfer.equals(saved.getProperty("transfer"))) {
      throw new CliException(
          ExitCode.USAGE,
          "--resume: the checkpoint at "
              + file
              + " is of another transfer ("
              + saved.getProperty("transfer")
              + ").");
    }
    Checkpoint checkpoint = new Checkpoint(file, transfer);
    int count = Integer.parseInt(saved.getProperty("done", "0"));
    for (int i = 0; i < count; i++) {
      checkpoint.done.add(saved.getProperty("done." + i));
    }
    checkpoint.table = saved.getProperty("table");
    if (checkpoint.table != null) {
      checkpoint.position =
          new Position(
              Long.parseLong(saved.getProperty("entities")),
              saved.getProperty("partitionKey"),
              saved.getProperty("rowKey"),
              Long.parseLong(saved.getProperty("offset")));
    }
    return checkpoint;
  }

  public boolean isDone(String name) {
    return done.contains(name);
  }

  /** Where the table starts: its committed position if it was the one in progress. */
  public Position start(String name) {
    return name.equals(table) ? position : Position.START;
  }

  /** Entities already committed by earlier runs in the tables finished and the current one. */
  public long committedBefore() {
    return position.entities();
  }

  public void committed(String name, Position at) {
    table = name;
    position = at;
    save();
  }

  public void finished(String name) {
    done.add(name);
    table = null;
    position = Position.START;
    save();
  }

  /** The transfer is complete: nothing to resume. */
  public void delete() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a stale checkpoint is refused by a later --resume only if it is of another transfer
    }
  }

  public Path file() {
    return file;
  }

  private void save() {
    Properties out = new Properties();
    out.setProperty("transfer", transfer);
    out.setProperty("done", Integer.toString(done.size()));
    for (int i = 0; i < done.size(); i++) {
      out.setProperty("done." + i, done.get(i));
    }
    if (table != null) {
      out.setProperty("table", table);
      out.setProperty("entities", Long.toString(position.entities()));
      if (position.partitionKey() != null) {
        out.setProperty("partitionKey", position.partitionKey());
        out.setProperty("rowKey", position.rowKey());
      }
      out.setProperty("offset", Long.toString(position.sinkOffset()));
    }
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
        out.store(writer, "trestle transfer checkpoint: resume with --resume");
      }
      Files.move(
          temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new CliException(
          ExitCode.DATA, "Cannot write the checkpoint " + file + ": " + e.getMessage() + ".", e);
    }
  }
}
