package dev.trestle.store.internal.h2;

import java.sql.SQLTransientException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets in the connections of one thread at a time. A thread may hold it on several connections
 * (Flyway writes on one while it keeps its lock on another): their writes cannot overlap, which is
 * all a save needs. Left by each connection, from any thread, when its transaction ends. A writer
 * waits for it as long as H2 waits for a row lock, and gives up as H2 does then.
 */
final class WriterGate {
  /** H2's SQLState and error code of a lock timeout, which the store retries as a lost race. */
  private static final String LOCK_TIMEOUT_STATE = "HYT00";

  private static final int LOCK_TIMEOUT_CODE = 50200;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition free = lock.newCondition();
  private final long timeoutMillis;
  private Thread owner;
  private int holds;

  /** {@code timeoutMillis}: how long a writer waits (the database's lock timeout). */
  WriterGate(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  void enter() throws SQLTransientException {
    Thread self = Thread.currentThread();
    lock.lock();
    try {
      long left = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (holds > 0 && owner != self) {
        if (left <= 0) {
          throw new SQLTransientException(
              "Timeout waiting to write: another transaction has been writing to the database for"
                  + " over "
                  + timeoutMillis
                  + " ms",
              LOCK_TIMEOUT_STATE,
              LOCK_TIMEOUT_CODE);
        }
        try {
          left = free.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLTransientException("Interrupted waiting to write", LOCK_TIMEOUT_STATE, e);
        }
      }
      owner = self;
      holds++;
    } finally {
      lock.unlock();
    }
  }

  void leave() {
    lock.lock();
    try {
      if (--holds == 0) {
        owner = null;
        free.signal();
      }
    } finally {
      lock.unlock();
    }
  }
}
