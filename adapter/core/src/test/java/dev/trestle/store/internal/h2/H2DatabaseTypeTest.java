package dev.trestle.store.internal.h2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.store.internal.database.PropertyIndex;
import dev.trestle.store.internal.read.EntityScan;
import org.junit.jupiter.api.Test;

class H2DatabaseTypeTest {
  private final H2DatabaseType type = new H2DatabaseType();

  @Test
  void readsPagesInKeyRangeChunksWithoutAPropertyIndex() {
    assertThat(type.pageReader()).isSameAs(EntityScan.IN_CHUNKS);
    assertThat(type.propertyIndex(null, type.dialect(), null)).isSameAs(PropertyIndex.NONE);
  }

  @Test
  void setsItsSnapshotThroughJdbc() {
    assertThat(type.dialect().snapshotStatement()).isEmpty();
  }
}
