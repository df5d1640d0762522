package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import dev.trestle.json.EntityLines;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Predicate;

/**
 * One table as NDJSON (see {@link EntityLines}): a file, or standard input and output for "-". A
 * file written is flushed every {@value #COMMIT_EVERY} entities, which is its commit: a resumed
 * export cuts the file back to the last one and appends.
 */
public final class NdjsonFile {
  static final int COMMIT_EVERY = 1_000;

  private NdjsonFile() {}

  /** A line of the source that is not an entity. */
  static final class UnreadableEntityException extends CliException {
    UnreadableEntityException(String message) {
      super(ExitCode.DATA, message);
    }
  }

  /** Reads the file's entities after the first {@code from.entities()}, parsed in parallel. */
  public static void read(Path file, Position from, Predicate<TableEntity> each) {
    try (Utf8Lines reader = new Utf8Lines(open(file));
        ParallelLines lines = new ParallelLines(line -> parse(file, line), each)) {
      long entity = 0;
      long lineNumber = 0;
      for (String line = reader.next(); line != null; line = reader.next()) {
        lineNumber++;
        if (line != Utf8Lines.NOT_UTF8 && (line.isBlank() || entity++ < from.entities())) {
          continue;
        }
        if (!lines.add(line, lineNumber) || line == Utf8Lines.NOT_UTF8) {
          break;
        }
      }
      lines.finish();
    } catch (IOException e) {
      // a folder, a file without read permission, a device gone: the file's, not a bug
      throw new CliException(
          ExitCode.DATA, "Cannot read " + name(file) + ": " + e.getMessage() + ".", e);
    }
  }

  private static TableEntity parse(Path file, ParallelLines.Line line) {
    if (line.text() == Utf8Lines.NOT_UTF8) {
      throw new UnreadableEntityException(
          "Line " + line.number() + " of " + name(file) + ": not UTF-8 text");
    }
    try {
      return EntityLines.read(line.text());
    } catch (EntityLines.MalformedEntityException e) {
      throw new UnreadableEntityException(
          "Line " + line.number() + " of " + name(file) + ": " + e.getMessage());
    }
  }

  private static InputStream open(Path file) throws IOException {
    InputStream in;
    if (isStandard(file)) {
      in = System.in;
    } else {
      try {
        in = Files.newInputStream(file);
      } catch (NoSuchFileException e) {
        throw new CliException(ExitCode.DATA, "Cannot read " + file + ": no such file.");
      }
    }
    return in;
  }

  /**
   * Standard output as a stream whose failures are reported: {@code System.out} swallows them, so
   * an export into a pipe whose reader had gone (`| head`, a dead gzip) went on and said it had
   * written everything.
   */
  static OutputStream standardOutput() {
    return new java.io.FileOutputStream(java.io.FileDescriptor.out);
  }

  static boolean isStandard(Path file) {
    return file == null || file.toString().equals("-");
  }

  private static String name(Path file) {
    return isStandard(file) ? "standard input" : file.toString();
  }

  /** A writer into the file, appending after {@code from.sinkOffset()} bytes when resumed. */
  public static Sink.Table writer(Path file, Position from) {
    try {
      OutputStream out;
      if (isStandard(file)) {
        out = new BufferedOutputStream(standardOutput(), 1 << 16);
      } else {
        if (file.getParent() != null) {
          Files.createDirectories(file.getParent());
        }
        FileChannel channel =
            FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                from.atStart() ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.WRITE);
        channel.truncate(from.sinkOffset());
        channel.position(from.sinkOffset());
        out =
            new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel), 1 << 16);
      }
      return new Writer(
          out, isStandard(file), isStandard(file) ? "standard output" : file.toString(), from);
    } catch (IOException e) {
      throw new CliException(ExitCode.DATA, "Cannot write " + file + ": " + e.getMessage() + ".");
    }
  }

  private static final class Writer implements Sink.Table {
    private final OutputStream out;
    private final String name;
    private final boolean standard;
    private long bytes;
    private long added;
    private TableEntity last;
    private Sink.Committed committed = Sink.Committed.NONE;
    private long committedBytes;

    Writer(OutputStream out, boolean standard, String name, Position from) {
      this.out = out;
      this.standard = standard;
      this.name = name;
      this.bytes = from.sinkOffset();
      this.committedBytes = from.sinkOffset();
    }

    @Override
    public void add(TableEntity entity) {
      byte[] line = (EntityLines.write(entity) + "\n").getBytes(StandardCharsets.UTF_8);
      try {
        out.write(line);
      } catch (IOException e) {
        throw new CliException(
            ExitCode.DATA, "Cannot write " + name + ": " + e.getMessage() + ".", e);
      }
      bytes += line.length;
      added++;
      last = entity;
      if (added % COMMIT_EVERY == 0) {
        commit();
      }
    }

    private void commit() {
      try {
        out.flush();
      } catch (IOException e) {
        throw new CliException(
            ExitCode.DATA, "Cannot write " + name + ": " + e.getMessage() + ".", e);
      }
      committed = new Sink.Committed(added, last);
      committedBytes = bytes;
    }

    @Override
    public Sink.Committed committed() {
      return committed;
    }

    @Override
    public long offset() {
      return committedBytes;
    }

    @Override
    public void close() {
      commit();
      if (!standard) {
        try {
          out.close();
        } catch (IOException e) {
          throw new CliException(
              ExitCode.DATA, "Cannot write " + name + ": " + e.getMessage() + ".", e);
        }
      }
    }
  }
}
