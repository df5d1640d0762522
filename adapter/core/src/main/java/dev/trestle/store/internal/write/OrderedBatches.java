package dev.trestle.store.internal.write;

import dev.trestle.BulkWriteOptions;
import dev.trestle.TableEntity;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A pipelined bulk writer's batches in flight: up to {@value BulkWriteOptions#PIPELINED_BATCHES} at
 * once, each written on a connection of its own while the caller fills the next, and committed in
 * the order sent: a batch's transaction does its statements, then waits for the batch before it to
 * commit, and rolls back if that one failed. So the database does the costly part of several
 * batches at once (parsing the documents, the key index, WAL), while what is committed is always
 * the batches sent up to some point, as one writer gives; a resume after it has no gap.
 *
 * <p>Two batches holding one key are never in flight together (the later waits for the earlier to
 * commit): the later one's statement would wait for the earlier's row lock, or, if first, make the
 * earlier one wait for it while it waits for the earlier one's commit, which the database cannot
 * see as a deadlock.
 *
 * <p>Disjoint keys do not always mean disjoint waits: a batch that must retry (a deadlock or a
 * conflict with another writer, a lock timeout) may, in its next attempt, wait on a lock that a
 * later batch holds, or on a writer that waits for one, while that later batch waits here for its
 * commit, which no database can see. (A resumed copy into H2 hung so, before H2 stopped committing
 * batches concurrently: see {@code Dialect.commitsBulkBatchesConcurrently}.) A batch that would
 * retry therefore throws {@link RetryAlone} instead: the later batches roll back, and the caller
 * writes it and them again one at a time, in order.
 */
final class OrderedBatches implements AutoCloseable {

  /** One batch's place in the order, handed to its transaction. */
  static final class Turn {
    private final Turn before;
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    private Turn(Turn before) {
      this.before = before;
    }

    /**
     * Waits until the batch before has its connection, so that a pool smaller than the batches in
     * flight hands connections out in order and the oldest batch is never left without one.
     */
    void awaitConnecting() {
      if (before != null) {
        before.connected.exceptionally(e -> null).join();
      }
    }

    /** The batch's transaction has its connection. */
    void connected() {
      connected.complete(null);
    }

    /** Waits for the batch before to commit; throws, to roll this one back, if it failed. */
    void awaitCommitting() {
      if (before == null) {
        return;
      }
      try {
        before.done.join();
      } catch (RuntimeException e) {
        throw new EarlierBatchFailedException();
      }
    }
  }

  /** Rolls a batch back after the one before it failed; the caller sees that one's failure. */
  static final class EarlierBatchFailedException extends RuntimeException {
    EarlierBatchFailedException() {
      super("An earlier batch failed", null, false, false);
    }
  }

  /**
   * Thrown by a batch's work, in its turn, for a failure it would retry: it is written again once
   * no later batch holds a transaction.
   */
  static final class RetryAlone extends RuntimeException {
    RetryAlone(Throwable cause) {
      super("A batch to write again on its own", cause, false, false);
    }
  }

  /** Commits a batch in its turn, or with a turn of null on its own. */
  @FunctionalInterface
  interface Work {
    void commit(Turn turn);
  }

  /** Hears each batch committed, in order, on the caller's thread. */
  @FunctionalInterface
  interface Committed {
    void committed(int adds, TableEntity last);
  }

  private record InFlight(Turn turn, Set<?> keys, int adds, TableEntity last, Work work) {}

  private final ExecutorService threads;
  private final Committed committed;
  private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
  private Turn last;

  OrderedBatches(String tableName, Committed committed) {
    this.committed = committed;
    this.threads =
        Executors.newFixedThreadPool(
            BulkWriteOptions.PIPELINED_BATCHES,
            Thread.ofPlatform().daemon().name("trestle-bulk-" + tableName + "-", 1).factory());
  }

  /**
   * Sends a batch holding {@code keys}: once a thread is free, and after every batch in flight
   * holding one of its keys has committed. Tells the listener of batches committed meanwhile.
   */
  void send(Set<?> keys, int adds, TableEntity lastAdded, Work work) {
    while (inFlight.size() >= BulkWriteOptions.PIPELINED_BATCHES || sharesAKey(keys)) {
      awaitOldest();
    }
    Turn turn = new Turn(last);
    last = turn;
    inFlight.add(new InFlight(turn, keys, adds, lastAdded, work));
    threads.execute(
        () -> {
          try {
            work.commit(turn);
            turn.done.complete(null);
          } catch (RuntimeException | Error e) {
            turn.connected.complete(null);
            turn.done.completeExceptionally(e);
          }
        });
    while (!inFlight.isEmpty() && inFlight.peek().turn().done.isDone()) {
      awaitOldest();
    }
  }

  private boolean sharesAKey(Set<?> keys) {
    for (InFlight batch : inFlight) {
      for (Object key : keys) {
        if (batch.keys().contains(key)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Waits for every batch in flight to commit; throws the first failure. */
  void awaitAll() {
    while (!inFlight.isEmpty()) {
      awaitOldest();
    }
  }

  /**
   * Waits for the oldest batch; on its failure the later ones (which roll back) are waited for and
   * dropped, and the failure is thrown.
   */
  private void awaitOldest() {
    InFlight oldest = inFlight.poll();
    try {
      oldest.turn().done.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RetryAlone) {
        writeAgainOneByOne(oldest);
        return;
      }
      dropAfterFailure();
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while a bulk batch was being written", e);
    }
    committed.committed(oldest.adds(), oldest.last());
  }

  /**
   * Writes {@code failed} and every later batch again on this thread, in order, once the later ones
   * have rolled back (each waited for the failed one, so none committed).
   */
  private void writeAgainOneByOne(InFlight failed) {
    List<InFlight> again = new ArrayList<>();
    again.add(failed);
    again.addAll(inFlight);
    dropAfterFailure();
    for (InFlight batch : again) {
      batch.work().commit(null);
      committed.committed(batch.adds(), batch.last());
    }
  }

  private void dropAfterFailure() {
    for (InFlight later : inFlight) {
      later.turn().done.exceptionally(e -> null).join();
    }
    inFlight.clear();
    last = null;
  }

  @Override
  public void close() {
    threads.shutdown();
  }
}
