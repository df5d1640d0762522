package dev.trestle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Entities stay immutable while builders and copies share their properties until they change. */
class TableEntityBuilderTest {
  @Test
  void aBuilderChangedAfterBuildLeavesTheBuiltEntityAsItWas() {
    TableEntity.Builder builder = TableEntity.builder("p", "r").put("A", 1);
    TableEntity first = builder.build();

    TableEntity second = builder.put("A", 2).put("B", "b").remove("A").build();

    assertThat(first.properties()).containsExactly(Map.entry("A", PropertyValue.of(1)));
    assertThat(second.properties()).containsExactly(Map.entry("B", PropertyValue.of("b")));
  }

  @Test
  void aCopyChangedThroughToBuilderLeavesTheOriginalAsItWas() {
    TableEntity original = TableEntity.builder("p", "r").put("A", 1).put("B", 2).build();

    TableEntity copy =
        original.toBuilder()
            .put("A", 10)
            .remove("B")
            .etag("W/\"x\"")
            .timestamp(Instant.EPOCH)
            .build();

    assertThat(original.properties())
        .containsExactly(Map.entry("A", PropertyValue.of(1)), Map.entry("B", PropertyValue.of(2)));
    assertThat(original.etag()).isNull();
    assertThat(copy.properties()).containsExactly(Map.entry("A", PropertyValue.of(10)));
    assertThat(copy.etag()).isEqualTo("W/\"x\"");
  }

  @Test
  void anUnchangedCopyHasEqualPropertiesInTheSameOrder() {
    TableEntity original = TableEntity.builder("p", "r").put("Z", 1).put("A", 2).build();

    TableEntity copy = original.toBuilder().remove("Missing").build();

    assertThat(copy).isEqualTo(original);
    assertThat(copy.properties().keySet()).containsExactly("Z", "A");
  }
}
