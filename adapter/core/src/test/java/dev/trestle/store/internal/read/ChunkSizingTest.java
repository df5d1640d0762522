package dev.trestle.store.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.store.internal.database.QueryLimits;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How the key-range scan sizes its next chunk from the pace of the last and the time left. */
class ChunkSizingTest {
  private static final QueryLimits LIMITS = new QueryLimits(Duration.ofSeconds(5), 10_000, 400_000);
  private static final long MS = 1_000_000L;

  @Test
  void aFastChunkDoublesUpToTheLargest() {
    assertThat(EntityScan.nextChunk(10_000, 10 * MS, 4_900 * MS, LIMITS)).isEqualTo(20_000);
    assertThat(EntityScan.nextChunk(300_000, 10 * MS, 4_900 * MS, LIMITS)).isEqualTo(400_000);
  }

  @Test
  void aSlowChunkIsFollowedByOneThatFitsInHalfTheTimeLeft() {
    // 10,000 rows took 1 s; 2 s are left: 10,000 rows more fit in half of them
    assertThat(EntityScan.nextChunk(10_000, 1_000 * MS, 2_000 * MS, LIMITS)).isEqualTo(10_000);
    // 160,000 rows took 2.4 s with 2.4 s left: 80,000, not 320,000
    assertThat(EntityScan.nextChunk(160_000, 2_400 * MS, 2_400 * MS, LIMITS)).isEqualTo(80_000);
  }

  @Test
  void thePageStillAdvancesWhenAlmostNoTimeIsLeft() {
    assertThat(EntityScan.nextChunk(10_000, 4_000 * MS, 1 * MS, LIMITS)).isEqualTo(1_000);
  }
}
