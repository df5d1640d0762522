package dev.trestle.store.internal.h2;

import dev.trestle.store.internal.database.GroupGuard;
import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * H2's guard: its REPEATABLE READ lets a later statement of a transaction see a group committed
 * after the first (measured: about one multi-statement page in 1,500 under constant group writes
 * showed half a group). An H2 database file is open in one process, so locks in this process order
 * every writer and reader of it. Group writers share a table with each other, and so do readers;
 * only the two kinds exclude each other ({@link OneWriterAtATime} then lets one writer at a time
 * into the database itself). Tables share a fixed set of such locks by id, so memory stays bounded
 * whatever the number of tables.
 */
final class InProcessGroupGuard implements GroupGuard {
  /** One guard for the process: every store on any H2 database in it shares these locks. */
  static final InProcessGroupGuard INSTANCE = new InProcessGroupGuard();

  private static final int STRIPES = 64;

  private final Room[] rooms = new Room[STRIPES];

  private InProcessGroupGuard() {
    for (int i = 0; i < STRIPES; i++) {
      rooms[i] = new Room();
    }
  }

  @Override
  public <T> T write(long tableId, Supplier<T> work) {
    return room(tableId).holding(Kind.WRITER, work);
  }

  /** Each stripe once (a writer entering its own room again could wait for itself), in order. */
  @Override
  public <T> T writeAll(Collection<Long> tableIds, Supplier<T> work) {
    TreeSet<Integer> stripes = new TreeSet<>();
    for (long tableId : tableIds) {
      stripes.add((int) Math.floorMod(tableId, (long) STRIPES));
    }
    Supplier<T> nested = work;
    for (int stripe : stripes.descendingSet()) {
      Room room = rooms[stripe];
      Supplier<T> inner = nested;
      nested = () -> room.holding(Kind.WRITER, inner);
    }
    return nested.get();
  }

  @Override
  public <T> T read(long tableId, Supplier<T> work) {
    return room(tableId).holding(Kind.READER, work);
  }

  private Room room(long tableId) {
    return rooms[(int) Math.floorMod(tableId, (long) STRIPES)];
  }

  private enum Kind {
    READER,
    WRITER;

    Kind other() {
      return this == READER ? WRITER : READER;
    }
  }

  /**
   * Holds any number of one kind at a time. A kind that is waiting gets the next turn: while it
   * waits, no more of the kind inside may enter, so neither starves the other. A ReentrantLock
   * rather than a monitor, so a waiting virtual thread does not pin its carrier on Java 21.
   */
  private static final class Room {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final int[] inside = new int[2];
    private final int[] waiting = new int[2];

    <T> T holding(Kind kind, Supplier<T> work) {
      enter(kind);
      try {
        return work.get();
      } finally {
        leave(kind);
      }
    }

    private void enter(Kind kind) {
      int self = kind.ordinal();
      int other = kind.other().ordinal();
      lock.lock();
      try {
        waiting[self]++;
        try {
          while (inside[other] > 0 || (waiting[other] > 0 && inside[self] > 0)) {
            changed.awaitUninterruptibly();
          }
        } finally {
          waiting[self]--;
        }
        inside[self]++;
      } finally {
        lock.unlock();
      }
    }

    private void leave(Kind kind) {
      lock.lock();
      try {
        inside[kind.ordinal()]--;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }
}
