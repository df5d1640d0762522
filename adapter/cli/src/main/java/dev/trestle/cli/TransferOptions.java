package dev.trestle.cli;

import dev.trestle.cli.transfer.Checkpoint;
import dev.trestle.cli.transfer.Progress;
import dev.trestle.cli.transfer.Sink;
import dev.trestle.cli.transfer.Source;
import dev.trestle.cli.transfer.StopSignal;
import dev.trestle.cli.transfer.Transfer;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The flags export, import and copy share: progress, checkpoint and resume, timestamps. */
public final class TransferOptions {
  @Option(
      names = "--resume",
      order = 80,
      description =
          "Continue a stopped run of the same command from its checkpoint: nothing committed is"
              + " read or written again.")
  boolean resume;

  @Option(
      names = "--checkpoint",
      paramLabel = "FILE",
      order = 81,
      description =
          "Where the run keeps its checkpoint (removed when it finishes). Default:"
              + " .trestle-COMMAND-HASH.checkpoint in the working directory, HASH naming the"
              + " source and target.")
  Path checkpoint;

  @Option(
      names = "--keep-timestamps",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      order = 82,
      description =
          "Keep each entity's Timestamp (and so its ETag) when writing into a database (default);"
              + " --no-keep-timestamps gives them the time of the write. A Table endpoint always"
              + " sets its own.")
  boolean keepTimestamps = true;

  @Option(
      names = {"-q", "--quiet"},
      order = 83,
      description =
          "No progress. Otherwise a live line on a terminal, else a line every 10 seconds.")
  boolean quiet;

  /** Runs the transfer, reporting it in one line; stops cleanly on SIGTERM or SIGINT. */
  long run(
      Trestle trestle, String command, Source source, Sink sink, List<String> tables, String verb) {
    String transfer = command + " " + source.describe() + " -> " + sink.describe();
    Path file =
        checkpoint != null
            ? checkpoint
            : Path.of(
                ".trestle-"
                    + command
                    + "-"
                    + Integer.toHexString(transfer.hashCode())
                    + ".checkpoint");
    Checkpoint saved =
        resume ? Checkpoint.resume(file, transfer) : Checkpoint.fresh(file, transfer);
    Progress progress = new Progress(trestle.err(), Progress.detect(quiet));
    StopSignal stop = StopSignal.install();
    long written = new Transfer(source, sink, saved, progress, stop).run(tables);
    double seconds = progress.seconds();
    trestle
        .err()
        .printf(
            "%s %d entities in %d table(s) in %.1f s (%,d entities/s).%n",
            verb, written, tables.size(), seconds, seconds > 0 ? Math.round(written / seconds) : 0);
    if (keepTimestamps && !sink.keepsTimestamps()) {
      // documented, and said at run time: an operator must not find the ETags changed by surprise;
      // after the summary, so that a failure stays the one line on standard error
      trestle
          .err()
          .println(
              "Note: "
                  + sink.describe()
                  + " sets each entity's Timestamp and ETag itself: the source's are not kept.");
    }
    return written;
  }
}
