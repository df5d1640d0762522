package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a table of a {@link Source} on a thread of its own, {@value #CHUNKS} chunks of {@value
 * #CHUNK} entities ahead at most, so that reading (a query, parsing a file) overlaps writing and
 * memory stays bounded. Entities come out in the order read; a failure of the read comes out after
 * the entities read before it.
 */
final class ReadAhead implements AutoCloseable {
  static final int CHUNK = 500;
  static final int CHUNKS = 8;
  private static final List<TableEntity> END = List.of();

  private final BlockingQueue<List<TableEntity>> queue = new ArrayBlockingQueue<>(CHUNKS);
  private final Thread thread;
  private volatile boolean closed;
  private volatile RuntimeException failure;
  private boolean ended;

  ReadAhead(Source source, String table, Position from) {
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("trestle-read-" + table)
            .start(() -> read(source, table, from));
  }

  private void read(Source source, String table, Position from) {
    List<List<TableEntity>> chunk = new ArrayList<>(List.of(new ArrayList<>(CHUNK)));
    try {
      source.read(
          table,
          from,
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
      put(END);
    }
  }

  /** Waits for room, unless the reading is closed meanwhile. */
  private void put(List<TableEntity> entities) {
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
  List<TableEntity> next() {
    if (ended) {
      return null;
    }
    List<TableEntity> entities;
    try {
      entities = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading", e);
    }
    if (entities == END) {
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
