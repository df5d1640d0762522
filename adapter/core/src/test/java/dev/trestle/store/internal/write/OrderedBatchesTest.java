package dev.trestle.store.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The order pipelined batches commit in, when the oldest must retry while later ones wait for it
 * with their transactions open (its next attempt might wait on one of their locks).
 */
class OrderedBatchesTest {

  private static TableEntity entity(String rowKey) {
    return TableEntity.builder("p", rowKey).build();
  }

  @Test
  void aBatchThatMustRetryIsWrittenAgainAloneAfterTheLaterOnesRolledBack() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    List<String> committed = new CopyOnWriteArrayList<>();
    CountDownLatch secondWaiting = new CountDownLatch(1);
    try (OrderedBatches batches =
        new OrderedBatches("T", (adds, last) -> committed.add(last.rowKey()))) {
      batches.send(
          Set.of("a"),
          1,
          entity("a"),
          turn -> {
            if (turn == null) {
              events.add("a alone");
              return;
            }
            turn.connected();
            try {
              // the later batch holds its transaction open, waiting for this one to commit
              assertThat(secondWaiting.await(10, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
            events.add("a must retry");
            throw new OrderedBatches.RetryAlone(new RuntimeException("lock timeout"));
          });
      batches.send(
          Set.of("b"),
          1,
          entity("b"),
          turn -> {
            if (turn == null) {
              events.add("b alone");
              return;
            }
            turn.awaitConnecting();
            turn.connected();
            secondWaiting.countDown();
            try {
              turn.awaitCommitting();
            } catch (OrderedBatches.EarlierBatchFailedException e) {
              events.add("b rolled back");
              throw e;
            }
            events.add("b committed in its turn");
          });
      batches.awaitAll();
    }
    assertThat(events).containsExactly("a must retry", "b rolled back", "a alone", "b alone");
    assertThat(committed).containsExactly("a", "b");
  }
}
