package dev.trestle.store.internal.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PostgresDatabaseTypeTest {
  private final PostgresDatabaseType type = new PostgresDatabaseType();

  @Test
  void readsPagesThroughACursorAndMakesTheGinPropertyIndex() {
    assertThat(type.pageReader()).isSameAs(CursorScan.THROUGH_CURSOR);
    assertThat(type.propertyIndex(null, type.dialect(), null)).isInstanceOf(GinPropertyIndex.class);
  }

  @Test
  void setsItsSnapshotInOneStatement() {
    assertThat(type.dialect().snapshotStatement())
        .contains("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
  }
}
