package dev.trestle.server.internal.http;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where Jetty runs requests: on an idle platform thread of a small pool when there is one, else on
 * a new virtual thread. A request that blocks on a socket (PostgreSQL's answer) costs less CPU on a
 * platform thread than on a virtual one, which parks and is woken through the JDK's poller; while
 * every platform thread is busy (a slow database, slow clients), further requests still start at
 * once on virtual threads, so no number of blocked requests exhausts the server.
 */
public final class RequestThreads implements Executor {
  private static final long IDLE_SECONDS = 60;

  private final ThreadPoolExecutor platform;
  private final ThreadFactory overflow = Thread.ofVirtual().name("trestle-request-v", 0).factory();

  /** {@code platformThreads}: at most this many platform threads, started as needed. */
  public RequestThreads(int platformThreads) {
    AtomicInteger number = new AtomicInteger();
    platform =
        new ThreadPoolExecutor(
            0,
            platformThreads,
            IDLE_SECONDS,
            TimeUnit.SECONDS,
            // a task goes to an idle thread or to a new one, never into a queue
            new SynchronousQueue<>(),
            task -> {
              Thread thread = new Thread(task, "trestle-request-" + number.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            },
            (task, pool) -> overflow.newThread(task).start());
  }

  @Override
  public void execute(Runnable task) {
    platform.execute(task);
  }

  /** Lets the idle platform threads end; requests still running finish. */
  public void shutdown() {
    platform.shutdown();
  }
}
