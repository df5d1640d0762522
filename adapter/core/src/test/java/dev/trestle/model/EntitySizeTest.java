package dev.trestle.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EntitySizeTest {

  @Test
  void emptyEntityIsFourBytesPlusTwicePerKeyCodeUnit() {
    assertThat(EntitySize.of(TableEntity.builder("", "").build())).isEqualTo(4);
    assertThat(EntitySize.of(TableEntity.builder("ab", "\ud83d\ude00").build()))
        .isEqualTo(4 + 2 * 2 + 2 * 2);
  }

  @Test
  void valueSizesByType() {
    assertThat(EntitySize.ofValue(PropertyValue.of("abc"))).isEqualTo(4 + 6);
    assertThat(EntitySize.ofValue(PropertyValue.of(""))).isEqualTo(4);
    assertThat(EntitySize.ofValue(PropertyValue.of(new byte[10]))).isEqualTo(4 + 10);
    assertThat(EntitySize.ofValue(PropertyValue.of(1))).isEqualTo(4);
    assertThat(EntitySize.ofValue(PropertyValue.of(1L))).isEqualTo(8);
    assertThat(EntitySize.ofValue(PropertyValue.of(1.0))).isEqualTo(8);
    assertThat(EntitySize.ofValue(PropertyValue.of(Instant.EPOCH))).isEqualTo(8);
    assertThat(EntitySize.ofValue(PropertyValue.of(UUID.randomUUID()))).isEqualTo(16);
    assertThat(EntitySize.ofValue(PropertyValue.of(true))).isEqualTo(1);
  }

  @Test
  void eachPropertyPaysEightBytesAndItsName() {
    TableEntity e = TableEntity.builder("p", "r").put("Age", 30).put("Name", "Al").build();
    long expected = 4 + 2 + 2 + (8 + 6 + 4) + (8 + 8 + 4 + 4);
    assertThat(EntitySize.of(e)).isEqualTo(expected);
  }
}
