package dev.trestle.store.internal.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RowEstimatesTest {
  @Test
  void anEstimateIsAskedForOnceWhileFreshAndPerKey() {
    RowEstimates estimates = new RowEstimates();
    AtomicInteger asked = new AtomicInteger();
    assertThat(estimates.rows("a", () -> asked.incrementAndGet() * 10.0)).isEqualTo(10.0);
    assertThat(estimates.rows("a", () -> asked.incrementAndGet() * 10.0)).isEqualTo(10.0);
    assertThat(estimates.rows("b", () -> asked.incrementAndGet() * 10.0)).isEqualTo(20.0);
    assertThat(asked).hasValue(2);
  }

  @Test
  void aStaleEstimateOrOneWithoutKeyIsAskedForAgain() {
    RowEstimates stale = new RowEstimates(0);
    AtomicInteger asked = new AtomicInteger();
    stale.rows("a", asked::incrementAndGet);
    stale.rows("a", asked::incrementAndGet);
    new RowEstimates().rows(null, asked::incrementAndGet);
    new RowEstimates().rows(null, asked::incrementAndGet);
    assertThat(asked).hasValue(4);
  }
}
