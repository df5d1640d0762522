package dev.trestle.store.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class TicksTest {

  @Test
  void noTwoCallsFromAnyThreadsGetTheSameTicks() throws InterruptedException {
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (InterruptedException e) {
                      throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < 20_000; i++) {
                      seen.add(Ticks.now());
                    }
                  }));
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(seen).hasSize(4 * 20_000);
  }

  @Test
  void theNextVersionComesAfterThePreviousOneEvenWhenThatIsAheadOfTheClock() {
    long ahead = Ticks.of(Instant.now().plusSeconds(3600));
    long next = Ticks.next(ahead);
    assertThat(next).isEqualTo(ahead + 1);
    assertThat(Ticks.now()).as("the clock stays the clock").isLessThan(ahead);
  }

  @Test
  void formatsSevenFractionalDigits() {
    assertThat(Ticks.format(Ticks.of(Instant.parse("2021-09-21T01:04:07.098056200Z"))))
        .isEqualTo("2021-09-21T01:04:07.0980562Z");
    assertThat(Ticks.format(0)).isEqualTo("1970-01-01T00:00:00.0000000Z");
  }
}
