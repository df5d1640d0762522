package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Parses a file's lines into entities on {@value #PARSERS} threads of its own, {@value #CHUNK}
 * lines per task, and hands the entities on in the order of the lines: parsing is the costliest
 * step of an import, and one reading thread would be its limit. At most {@value #AHEAD} chunks are
 * parsed ahead, so memory stays bounded. A line that fails comes out as its failure, after the
 * entities of the lines before it.
 */
final class ParallelLines implements AutoCloseable {
  static final int PARSERS = 2;
  static final int CHUNK = 250;
  static final int AHEAD = 8;

  /** A chunk parsed: its entities, then the failure of the line after them, if one failed. */
  private record Parsed(List<TableEntity> entities, RuntimeException failure) {}

  /** A line to parse and its number in the file (for messages). */
  record Line(String text, long number) {}

  private final Function<Line, TableEntity> parse;
  private final Predicate<TableEntity> each;
  private final ExecutorService threads =
      Executors.newFixedThreadPool(
          PARSERS, Thread.ofPlatform().daemon().name("trestle-parse-", 1).factory());
  private final ArrayDeque<Future<Parsed>> ahead = new ArrayDeque<>();
  private List<Line> chunk = new ArrayList<>(CHUNK);
  private boolean stopped;

  ParallelLines(Function<Line, TableEntity> parse, Predicate<TableEntity> each) {
    this.parse = parse;
    this.each = each;
  }

  /** Adds a line; false once the consumer wants no more. */
  boolean add(String text, long number) {
    chunk.add(new Line(text, number));
    if (chunk.size() == CHUNK) {
      submit();
    }
    return !stopped;
  }

  /** Hands on every entity still being parsed. */
  void finish() {
    submit();
    while (!stopped && !ahead.isEmpty()) {
      handOldest();
    }
  }

  private void submit() {
    if (chunk.isEmpty()) {
      return;
    }
    List<Line> lines = chunk;
    chunk = new ArrayList<>(CHUNK);
    ahead.add(threads.submit(() -> parse(lines)));
    while (!stopped && ahead.size() >= AHEAD) {
      handOldest();
    }
  }

  private Parsed parse(List<Line> lines) {
    List<TableEntity> entities = new ArrayList<>(lines.size());
    for (Line line : lines) {
      try {
        entities.add(parse.apply(line));
      } catch (RuntimeException e) {
        return new Parsed(entities, e);
      }
    }
    return new Parsed(entities, null);
  }

  private void handOldest() {
    Parsed parsed;
    try {
      parsed = ahead.poll().get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while parsing", e);
    }
    for (TableEntity entity : parsed.entities()) {
      if (!each.test(entity)) {
        stopped = true;
        return;
      }
    }
    if (parsed.failure() != null) {
      throw parsed.failure();
    }
  }

  /** Stops the parsing; what was parsed ahead is dropped. */
  @Override
  public void close() {
    ahead.forEach(future -> future.cancel(false));
    threads.shutdown();
  }
}
