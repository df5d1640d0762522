package dev.trestle.server.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestThreadsTest {
  @Test
  void requestsBeyondTheBusyPlatformThreadsStartAtOnceOnVirtualThreads() throws Exception {
    RequestThreads threads = new RequestThreads(2);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(5);
    List<Boolean> virtual = new CopyOnWriteArrayList<>();
    try {
      for (int i = 0; i < 5; i++) {
        threads.execute(
            () -> {
              virtual.add(Thread.currentThread().isVirtual());
              started.countDown();
              await(release);
            });
      }
      // all five run at once although only two platform threads exist: none waits in a queue
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(virtual).containsOnly(true, false);
      assertThat(virtual.stream().filter(v -> !v).count()).isEqualTo(2);
    } finally {
      release.countDown();
      threads.shutdown();
    }
  }

  @Test
  void anIdlePlatformThreadServesTheNextRequest() throws Exception {
    RequestThreads threads = new RequestThreads(1);
    try {
      for (int i = 0; i < 3; i++) {
        CountDownLatch done = new CountDownLatch(1);
        boolean[] onVirtual = new boolean[1];
        threads.execute(
            () -> {
              onVirtual[0] = Thread.currentThread().isVirtual();
              done.countDown();
            });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        // the one platform thread may still be finishing the last task: then a virtual one runs it
        Thread.sleep(100);
        if (i > 0) {
          assertThat(onVirtual[0]).isFalse();
        }
      }
    } finally {
      threads.shutdown();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
