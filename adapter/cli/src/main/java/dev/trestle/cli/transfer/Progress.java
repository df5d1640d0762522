package dev.trestle.cli.transfer;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Progress of a transfer: on a terminal a line redrawn four times a second (tables, entities,
 * entities/s, elapsed, ETA when the total is known), otherwise a line every ten seconds; nothing
 * when quiet.
 */
public final class Progress {
  public enum Style {
    TERMINAL,
    LOG,
    QUIET
  }

  private final PrintWriter err;
  private final Style style;
  private final LongSupplier clock;
  private final long start;
  private final long intervalNanos;
  private long nextReport;
  private int tables;
  private int tablesDone;
  private long entities;
  private long total = -1;
  private boolean drawn;

  public Progress(PrintWriter err, Style style) {
    this(err, style, System::nanoTime);
  }

  /** A progress reading the time from {@code clock}, in nanoseconds (tests). */
  Progress(PrintWriter err, Style style, LongSupplier clock) {
    this.err = err;
    this.style = style;
    this.clock = clock;
    this.start = clock.getAsLong();
    this.intervalNanos = style == Style.TERMINAL ? 250_000_000L : 10_000_000_000L;
    this.nextReport = start + intervalNanos;
  }

  /** On a terminal when both standard error and the console are one. */
  public static Style detect(boolean quiet) {
    if (quiet) {
      return Style.QUIET;
    }
    java.io.Console console = System.console();
    if (console == null) {
      return Style.LOG;
    }
    try {
      Object terminal = java.io.Console.class.getMethod("isTerminal").invoke(console);
      return Boolean.TRUE.equals(terminal) ? Style.TERMINAL : Style.LOG;
    } catch (ReflectiveOperationException e) {
      return Style.TERMINAL; // Java 21: a console is there only on a terminal
    }
  }

  public void tables(int count, long knownTotal) {
    tables = count;
    total = knownTotal;
  }

  public void tableDone() {
    tablesDone++;
  }

  /** Counts entities; reports when the interval has passed. */
  public void add(long count) {
    entities += count;
    if ((entities & 1023) == 0 && style != Style.QUIET) {
      long now = clock.getAsLong();
      if (now >= nextReport) {
        nextReport = now + intervalNanos;
        report(now, false);
      }
    }
  }

  public long entities() {
    return entities;
  }

  public double seconds() {
    return (clock.getAsLong() - start) / 1e9;
  }

  /** Ends a terminal's progress line. */
  public void finish() {
    if (style == Style.TERMINAL && drawn) {
      report(clock.getAsLong(), true);
    }
  }

  private void report(long now, boolean last) {
    double seconds = (now - start) / 1e9;
    long rate = seconds > 0 ? Math.round(entities / seconds) : 0;
    StringBuilder line = new StringBuilder();
    line.append(String.format("tables %d/%d, %,d entities", tablesDone, tables, entities));
    if (total > 0) {
      line.append(String.format(" of %,d", total));
    }
    line.append(String.format(", %,d entities/s, elapsed %s", rate, clock(seconds)));
    if (total > 0 && rate > 0 && entities < total) {
      line.append(", ETA ").append(clock((total - entities) / (double) rate));
    }
    if (style == Style.TERMINAL) {
      err.print("\r" + line + "\033[K" + (last ? "\n" : ""));
      drawn = true;
    } else {
      err.println("progress: " + line);
    }
    err.flush();
  }

  private static String clock(double seconds) {
    Duration d = Duration.ofSeconds(Math.round(seconds));
    return d.toHours() > 0
        ? String.format("%d:%02d:%02d", d.toHours(), d.toMinutesPart(), d.toSecondsPart())
        : String.format("%d:%02d", d.toMinutesPart(), d.toSecondsPart());
  }
}
