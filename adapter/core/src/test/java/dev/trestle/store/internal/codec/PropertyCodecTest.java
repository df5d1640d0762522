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

  /** Every type, and names and strings with and without characters JSON escapes. */
  private static Map<String, PropertyValue> awkward(String text) {
    Map<String, PropertyValue> properties = new LinkedHashMap<>();
    properties.put("S" + text, PropertyValue.of(text));
    properties.put("I", PropertyValue.of(-7));
    properties.put("L", PropertyValue.of(Long.MIN_VALUE));
    properties.put("D", PropertyValue.of(-0.0));
    properties.put("N", PropertyValue.of(Double.NaN));
    properties.put("B", PropertyValue.of(false));
    properties.put("T", PropertyValue.of(Instant.ofEpochSecond(1_600_000_000L, 1234500)));
    properties.put("G", PropertyValue.of(new UUID(-1, 5)));
    properties.put("X", PropertyValue.of(new byte[] {0, 127, (byte) 0x80}));
    properties.put("E", PropertyValue.of(""));
    return properties;
  }

  private static final List<String> TEXTS =
      List.of(
          "plain",
          "",
          "quote\"",
          "back\\slash",
          "tab\tnew\nline",
          "nul\u0000",
          "del\u007f/slash\u2028\u00e9",
          "\uD83D\uDE00 pair, \uD800 lone, \uFFFF",
          " spaced : [ , ] { } ");

  @Test
  void writesTheSameDocumentAsJacksonWhetherOrNotTextNeedsEscapes() {
    for (String text : TEXTS) {
      Map<String, PropertyValue> properties = awkward(text);
      assertThat(codec.encode(properties)).as(text).isEqualTo(codec.encodeEscaping(properties));
    }
  }

  @Test
  void readsBackWhatItWroteInOrder() {
    for (String text : TEXTS) {
      Map<String, PropertyValue> properties = awkward(text);
      Map<String, PropertyValue> decoded = codec.decode(codec.encode(properties));
      assertThat(decoded).as(text).isEqualTo(properties);
      assertThat(List.copyOf(decoded.keySet())).isEqualTo(List.copyOf(properties.keySet()));
    }
  }

  @Test
  void readsDocumentsInJsonbLayoutAndSelectsByName() {
    // jsonb's text: its own key order, a space after each separator
    String document =
        "{\"I\": [\"i\", 5, 1], \"Name\": [\"s\", \"a b\", 2], \"Long\": [\"l\", 12, 0]}";
    assertThat(codec.decode(document))
        .containsExactly(
            Map.entry("Long", PropertyValue.of(12L)),
            Map.entry("I", PropertyValue.of(5)),
            Map.entry("Name", PropertyValue.of("a b")));
    assertThat(codec.decode(document, List.of("Name", "Long")))
        .containsExactly(
            Map.entry("Long", PropertyValue.of(12L)), Map.entry("Name", PropertyValue.of("a b")));
    assertThat(codec.decode("{}")).isEmpty();
    assertThat(codec.decode(" { \"E\\u0041\" : [ \"s\" , \"\\n\" , 0 ] } "))
        .containsExactly(Map.entry("EA", PropertyValue.of("\n")));
  }
}
