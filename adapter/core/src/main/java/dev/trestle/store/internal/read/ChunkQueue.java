package dev.trestle.store.internal.read;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The rows of one chunk of a {@link BulkEntityReader}, handed from the thread reading them to the
 * caller's in blocks (a hand-off per row would wake a thread per row): bounded by rows and by
 * characters, so that a chunk read ahead waits (its cursor open) rather than hold a table of large
 * entities in memory. Then its end, or its failure after the rows read before it.
 */
final class ChunkQueue<T> {
  private record Block<T>(List<T> rows, long chars) {}

  private final int maxRows;
  private final long maxChars;
  private final ArrayDeque<Block<T>> blocks = new ArrayDeque<>();
  private int rows;
  private boolean takerWaits;
  private boolean readerWaits;
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
   * Adds a block of rows of about {@code size} characters once there is room (a block larger than
   * the bound goes alone); false if the queue was closed, and the reading should stop.
   */
  synchronized boolean put(List<T> block, long size) throws InterruptedException {
    while (!closed
        && !blocks.isEmpty()
        && (rows + block.size() > maxRows || chars + size > maxChars)) {
      readerWaits = true;
      wait();
    }
    if (closed) {
      return false;
    }
    blocks.add(new Block<>(block, size));
    rows += block.size();
    chars += size;
    if (takerWaits) {
      takerWaits = false;
      notifyAll();
    }
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

  /**
   * The next block of rows, or null at the chunk's end; its failure once those before are taken.
   */
  synchronized List<T> take() throws InterruptedException {
    while (blocks.isEmpty() && !ended) {
      takerWaits = true;
      wait();
    }
    Block<T> next = blocks.poll();
    if (next == null) {
      if (failure != null) {
        throw failure;
      }
      return null;
    }
    rows -= next.rows().size();
    chars -= next.chars();
    if (readerWaits) {
      readerWaits = false;
      notifyAll();
    }
    return next.rows();
  }

  /** Whether the chunk ended the table (or failed); only once {@link #take()} answered null. */
  synchronized boolean last() {
    return last;
  }

  /** Drops what is queued and tells the reading to stop. */
  synchronized void close() {
    closed = true;
    blocks.clear();
    notifyAll();
  }
}
