package dev.trestle.store.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A chunk read ahead holds at most its bound of rows and characters in blocks, then waits for the
 * taker.
 */
class ChunkQueueTest {

  @Test
  void aFullQueueWaitsUntilARowIsTakenAndKeepsTheOrder() throws Exception {
    ChunkQueue<String> queue = new ChunkQueue<>(2, 1_000);
    assertThat(queue.put(List.of("a"), 1)).isTrue();
    assertThat(queue.put(List.of("b"), 1)).isTrue();
    CompletableFuture<Boolean> third = putLater(queue, "c", 1);
    assertThat(third).isNotDone();
    assertThat(queue.take()).containsExactly("a");
    assertThat(third.get(10, TimeUnit.SECONDS)).isTrue();
    queue.end(false);
    assertThat(queue.take()).containsExactly("b");
    assertThat(queue.take()).containsExactly("c");
    assertThat(queue.take()).isNull();
    assertThat(queue.last()).isFalse();
  }

  @Test
  void charactersBoundTheQueueButALargerRowStillGoesAlone() throws Exception {
    ChunkQueue<String> queue = new ChunkQueue<>(100, 10);
    assertThat(queue.put(List.of("large"), 50)).isTrue();
    CompletableFuture<Boolean> next = putLater(queue, "small", 1);
    assertThat(next).isNotDone();
    assertThat(queue.take()).containsExactly("large");
    assertThat(next.get(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aFailureComesOutAfterTheRowsBeforeIt() throws Exception {
    ChunkQueue<String> queue = new ChunkQueue<>(10, 100);
    queue.put(List.of("a"), 1);
    queue.fail(new IllegalStateException("broken"));
    assertThat(queue.take()).containsExactly("a");
    assertThatThrownBy(queue::take).hasMessage("broken");
  }

  @Test
  void closingReleasesAWaitingReadingAndTellsItToStop() throws Exception {
    ChunkQueue<String> queue = new ChunkQueue<>(1, 100);
    queue.put(List.of("a"), 1);
    CompletableFuture<Boolean> waiting = putLater(queue, "b", 1);
    queue.close();
    assertThat(waiting.get(10, TimeUnit.SECONDS)).isFalse();
  }

  private static CompletableFuture<Boolean> putLater(
      ChunkQueue<String> queue, String row, long size) throws InterruptedException {
    CompletableFuture<Boolean> put = new CompletableFuture<>();
    Thread.ofPlatform()
        .start(
            () -> {
              try {
                put.complete(queue.put(List.of(row), size));
              } catch (InterruptedException e) {
                put.completeExceptionally(e);
              }
            });
    Thread.sleep(100); // a put that would not wait is done by then
    return put;
  }
}
