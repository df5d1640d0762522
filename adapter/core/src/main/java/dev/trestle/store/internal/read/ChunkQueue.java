package dev.trestle.store.internal.read;

import java.util.ArrayDeque;

/**
 * The rows of one chunk of a {@link BulkEntityReader}, handed from the thread reading them to the
 * caller's: bounded by rows and by characters, so that a chunk read ahead waits (its cursor open)
 * rather than hold a table of large entities in memory. Then its end, or its failure after the rows
 * read before it.
 */
final class ChunkQueue<T> {
  private record Row<T>(T row, long chars) {}

  private final int maxRows;
  private final long maxChars;
  private final ArrayDeque<Row<T>> rows = new ArrayDeque<>();
  private long chars;
  private boolean ended;
  private boolean last;
  private RuntimeException failure;
  private boolean closed;

  ChunkQueue(int maxRows, long maxChars) {
    this.maxRows = maxRows;
    this.maxChars = maxChars;
  }

  /**
   * Adds a row of about {@code size} characters once there is room (a row larger than the bound
   * goes alone); false if the queue was closed, and the reading should stop.
   */
  synchronized boolean put(T row, long size) throws InterruptedException {
    while (!closed && !rows.isEmpty() && (rows.size() >= maxRows || chars + size > maxChars)) {
      wait();
    }
    if (closed) {
      return false;
    }
    if (rows.isEmpty()) {
      notifyAll();
    }
    rows.add(new Row<>(row, size));
    chars += size;
    return true;
  }

  /** The chunk is read; {@code last}: it was the table's last. */
  synchronized void end(boolean last) {
    ended = true;
    this.last = last;
    notifyAll();
  }

  /** The reading failed after the rows put before. */
  synchronized void fail(RuntimeException failure) {
    this.failure = failure;
    end(true);
  }

  /** The next row, or null at the chunk's end; its failure once the rows before are taken. */
  synchronized T take() throws InterruptedException {
    while (rows.isEmpty() && !ended) {
      wait();
    }
    Row<T> next = rows.poll();
    if (next == null) {
      if (failure != null) {
        throw failure;
      }
      return null;
    }
    chars -= next.chars();
    notifyAll();
    return next.row();
  }

  /** Whether the chunk ended the table (or failed); only once {@link #take()} answered null. */
  synchronized boolean last() {
    return last;
  }

  /** Drops what is queued and tells the reading to stop. */
  synchronized void close() {
    closed = true;
    rows.clear();
    notifyAll();
  }
}
