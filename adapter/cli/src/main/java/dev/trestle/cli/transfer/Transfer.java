package dev.trestle.cli.transfer;

import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.util.List;
import java.util.function.Consumer;

/**
 * The one engine of export, import and copy: every listed table from a {@link Source} into a {@link
 * Sink}, in order, with progress, a {@link Checkpoint} after each commit, and a clean stop on
 * request. A resumed table is read from after its checkpoint (by keys, or by count for a file), so
 * what is done is not read again.
 */
public final class Transfer {
  private final Source source;
  private final Sink sink;
  private final Checkpoint checkpoint;
  private final Progress progress;
  private final StopSignal stop;

  public Transfer(
      Source source, Sink sink, Checkpoint checkpoint, Progress progress, StopSignal stop) {
    this.source = source;
    this.sink = sink;
    this.checkpoint = checkpoint;
    this.progress = progress;
    this.stop = stop;
  }

  /** The transfer was stopped on request after committing; its checkpoint resumes it. */
  public static final class StoppedException extends CliException {
    StoppedException(String message) {
      super(ExitCode.STOPPED, message);
    }
  }

  /** Entities written by this run (a resumed run counts only its own). */
  public long run(List<String> tables) {
    long known = 0;
    for (String table : tables) {
      long estimate = source.estimate(table);
      known = estimate < 0 || known < 0 ? -1 : known + estimate;
    }
    progress.tables(tables.size(), known);
    try {
      return tables(tables);
    } catch (RuntimeException e) {
      Throwable full = e instanceof StoppedException ? null : DiskFull.cause(e);
      if (full == null) {
        throw e;
      }
      throw diskFull(full, e);
    }
  }

  private long tables(List<String> tables) {
    long written = 0;
    for (String table : tables) {
      if (checkpoint.isDone(table)) {
        progress.tableDone();
        continue;
      }
      written += table(table);
      if (stop.requested()) {
        throw stopped();
      }
      checkpoint.finished(table);
      progress.tableDone();
    }
    sink.finished(tables);
    progress.finish();
    checkpoint.delete();
    return written;
  }

  private long table(String table) {
    Position from = checkpoint.start(table);
    Sink.Table out = sink.open(table, from);
    long[] seen = {0};
    boolean closed = false;
    try {
      readInto(table, from, out, seen);
      if (!stop.requested()) {
        out.allAdded();
      }
      out.close();
      closed = true;
      Sink.Committed committed = out.committed();
      // a stop saves even when nothing was committed: the resume needs a checkpoint to start from
      if (committed.entities() != seen[0] || stop.requested()) {
        save(table, from, committed, out.offset());
      }
      return committed.entities();
    } finally {
      if (!closed && stop.requested()) {
        out.close();
      }
    }
  }

  /**
   * Reads the table into the sink, the source read ahead on a thread of its own; an unreadable
   * entity of the source first commits those before it, so that a resume after fixing it continues
   * there.
   */
  private void readInto(String table, Position from, Sink.Table out, long[] seen) {
    String stored = source.storedFormRead();
    if (stored != null && stored.equals(sink.storedFormWritten())) {
      try (ReadAhead<RawEntity> ahead = ReadAhead.raw(source, table, from)) {
        pass(ahead, out::addRaw, table, from, out, seen);
      } catch (EntityWriter.WriteFailedException e) {
        throw refusedAfterCommitted(e, from, out);
      }
      return;
    }
    try (ReadAhead<TableEntity> ahead = ReadAhead.entities(source, table, from)) {
      pass(ahead, out::add, table, from, out, seen);
    } catch (EntityWriter.WriteFailedException e) {
      throw refusedAfterCommitted(e, from, out);
    } catch (NdjsonFile.UnreadableEntityException e) {
      out.close();
      Sink.Committed committed = out.committed();
      save(table, from, committed, out.offset());
      throw new CliException(
          ExitCode.DATA,
          e.getMessage()
              + " ("
              + (from.entities() + committed.entities())
              + " entities before it are committed; once it is fixed, --resume continues after"
              + " them).",
          e);
    }
  }

  /**
   * An entity the target refused, said as an unreadable one is: what was committed before it stays
   * (its checkpoint is saved at each commit), and a resume continues there once it is fixed.
   */
  private static EntityWriter.WriteFailedException refusedAfterCommitted(
      EntityWriter.WriteFailedException e, Position from, Sink.Table out) {
    return new EntityWriter.WriteFailedException(
        e.getMessage().replaceAll("\\.+$", "")
            + " ("
            + (from.entities() + out.committed().entities())
            + " entities before it are committed; once it is fixed, --resume continues after"
            + " them)",
        e);
  }

  /** Adds what is read to the sink, saving a checkpoint at each commit, until a stop. */
  private <T> void pass(
      ReadAhead<T> ahead,
      Consumer<T> add,
      String table,
      Position from,
      Sink.Table out,
      long[] seen) {
    for (List<T> read = ahead.next(); read != null; read = ahead.next()) {
      for (T entity : read) {
        add.accept(entity);
        progress.add(1);
        Sink.Committed committed = out.committed();
        if (committed.entities() != seen[0]) {
          seen[0] = committed.entities();
          save(table, from, committed, out.offset());
        }
        if (stop.requested()) {
          return;
        }
      }
    }
  }

  private void save(String table, Position from, Sink.Committed committed, long offset) {
    TableEntity last = committed.last();
    checkpoint.committed(
        table,
        new Position(
            from.entities() + committed.entities(),
            last == null ? from.partitionKey() : last.partitionKey(),
            last == null ? from.rowKey() : last.rowKey(),
            offset));
  }

  /**
   * One line for a full disk (the target's, or the checkpoint's): the data is not at fault, what
   * was committed stays, and the checkpoint (if the disk let it be written) says where to resume.
   */
  private CliException diskFull(Throwable full, RuntimeException failure) {
    // PostgreSQL names the file it could not extend; a sink's own message names its file
    String detail =
        full instanceof java.sql.SQLException
            ? " (" + full.getMessage().strip().replaceAll("\\s+", " ") + ")"
            : failure instanceof CliException
                ? " (" + failure.getMessage().strip().replaceAll("\\.+$", "") + ")"
                : "";
    String next =
        java.nio.file.Files.exists(checkpoint.file())
            ? "what was committed is kept: free space (or grow the volume), then run the same"
                + " command with --resume to continue after it (checkpoint "
                + checkpoint.file()
                + ")."
            : "nothing was committed: free space (or grow the volume), then run the same"
                + " command again.";
    return new CliException(
        ExitCode.DATA,
        "No space left on device while writing to " + sink.describe() + detail + "; " + next,
        failure);
  }

  private StoppedException stopped() {
    progress.finish();
    return new StoppedException(
        "Stopped on request after "
            + progress.entities()
            + " entities; what was in flight is committed. Resume with the same command and"
            + " --resume (checkpoint "
            + checkpoint.file()
            + ").");
  }
}
