package dev.trestle.store.internal.h2;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets in the connections of one thread at a time. A thread may hold it on several connections
 * (Flyway writes on one while it keeps its lock on another): their writes cannot overlap, which is
 * all a save needs. Left by each connection, from any thread, when its transaction ends.
 */
final class WriterGate {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition free = lock.newCondition();
  private Thread owner;
  private int holds;

  void enter() {
    Thread self = Thread.currentThread();
    lock.lock();
    try {
      while (holds > 0 && owner != self) {
        free.awaitUninterruptibly();
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
