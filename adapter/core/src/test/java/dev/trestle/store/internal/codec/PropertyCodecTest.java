package dev.trestle.store.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PropertyCodecTest {
  private final PropertyCodec codec =
      new PropertyCodec(UnitOrderText::encode, UnitOrderText::decode);

  @Test
  void containedDocumentWritesValuesAsStoredWithoutTagsOrPositions() {
    Map<String, List<PropertyValue>> values = new LinkedHashMap<>();
    values.put("Category", List.of(PropertyValue.of("c7")));
    values.put("Flag", List.of(PropertyValue.of(true)));
    values.put("Id", List.of(PropertyValue.of(new UUID(0, 0xab))));
    values.put("Bytes", List.of(PropertyValue.of(new byte[] {1, (byte) 0xfe})));
    values.put("Count", List.of(PropertyValue.of(-5L), PropertyValue.of(Long.MAX_VALUE)));
    values.put("When", List.of(PropertyValue.of(Instant.EPOCH.plusNanos(300))));

    assertThat(codec.encodeContained(values))
        .isEqualTo(
            "{\"Category\":[\"c7\"],\"Flag\":[true],"
                + "\"Id\":[\"00000000-0000-0000-0000-0000000000ab\"],\"Bytes\":[\"01fe\"],"
                + "\"Count\":[-5,9223372036854775807],\"When\":[3]}");
  }

  @Test
  void containedStringsAreEncodedAsStoredStringsAre() {
    String text = "a\u0000b\u0001\uD800\uE000\"\\";
    String stored = codec.encode(Map.of("S", PropertyValue.of(text)));
    String contained = codec.encodeContained(Map.of("S", List.of(PropertyValue.of(text))));
    // {"S":["s",<value>,0]} and {"S":[<value>]}
    String storedValue =
        stored.substring("{\"S\":[\"s\",".length(), stored.length() - ",0]}".length());
    assertThat(contained).isEqualTo("{\"S\":[" + storedValue + "]}");
  }
}
