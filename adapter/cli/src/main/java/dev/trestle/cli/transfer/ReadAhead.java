package dev.trestle.cli.transfer;

import dev.trestle.RawEntity;
import dev.trestle.TableEntity;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Reads a table of a {@link Source} on a thread of its own, {@value #CHUNKS} chunks of {@value
 * #CHUNK} entities ahead at most, so that reading (a query, parsing a file) overlaps writing and
 * memory stays bounded. Entities come out in the order read; a failure of the read comes out after
 * the entities read before it.
 */
final class ReadAhead<T> implements AutoCloseable {
  static final int CHUNK = 500;
  static final int CHUNKS = 8;

  private final BlockingQueue<List<T>> queue = new ArrayBlockingQueue<>(CHUNKS);
  private final Thread thread;
  private volatile boolean closed;
  private volatile RuntimeException failure;
  private boolean ended;

  /** The end of the reading, told apart from an empty chunk by identity. */
  private final List<T> end = new ArrayList<>(0);

  /** A reading of the table's entities as the source hands them. */
  static ReadAhead<TableEntity> entities(Source source, String table, Position from) {
    return new ReadAhead<>(table, each -> source.read(table, from, each));
  }

  /** A reading of the table's entities as stored (see {@link Source#storedFormRead()}). */
  static ReadAhead<RawEntity> raw(Source source, String table, Position from) {
    return new ReadAhead<>(table, each -> source.readRaw(table, from, each));
  }

  private ReadAhead(String table, Consumer<Predicate<T>> reading) {
    thread = Thread.ofPlatform().daemon().name("trestle-read-" + table).start(() -> read(reading));
  }

  private void read(Consumer<Predicate<T>> reading) {
    List<List<T>> chunk = new ArrayList<>(List.of(new ArrayList<>(CHUNK)));
    try {
      reading.accept(
          entity -> {
            chunk.getFirst().add(entity);
            if (chunk.getFirst().size() == CHUNK) {
              put(chunk.getFirst());
              chunk.set(0, new ArrayList<>(CHUNK));
            }
            return !closed;
          });
    } catch (RuntimeException e) {
      failure = e;
    } catch (Error e) {
      failure = new IllegalStateException(e);
    } finally {
      if (!chunk.getFirst().isEmpty()) {
        put(chunk.getFirst());
      }
      put(end);
    }
  }

  /** Waits for room, unless the reading is closed meanwhile. */
  private void put(List<T> entities) {
    try {
      while (!closed) {
        if (queue.offer(entities, 100, TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The next entities read, or null at the end; the read's failure once those before it are out.
   */
  List<T> next() {
    if (ended) {
      return null;
    }
    List<T> entities;
    try {
      entities = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading", e);
    }
    if (entities == end) {
      ended = true;
      if (failure != null) {
        throw failure;
      }
      return null;
    }
    return entities;
  }

  /** Stops the reading; what it read ahead is dropped. */
  @Override
  public void close() {
    closed = true;
    queue.clear();
    try {
      // a read blocked on its input (standard input) is a daemon thread: do not wait for it forever
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
