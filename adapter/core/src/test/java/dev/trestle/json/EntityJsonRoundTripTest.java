package dev.trestle.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a body written at each metadata level reads back as, per EDM type. */
class EntityJsonRoundTripTest {
  private static final Map<String, PropertyValue> EVERY_TYPE =
      Map.ofEntries(
          Map.entry("S", PropertyValue.of("text \u263a")),
          Map.entry("I", PropertyValue.of(Integer.MIN_VALUE)),
          Map.entry("L", PropertyValue.of(Long.MAX_VALUE)),
          Map.entry("D", PropertyValue.of(2.0)),
          Map.entry("DN", PropertyValue.of(Double.NaN)),
          Map.entry("DI", PropertyValue.of(Double.NEGATIVE_INFINITY)),
          Map.entry("B", PropertyValue.of(true)),
          Map.entry("T", PropertyValue.of(Instant.parse("1601-01-01T00:00:00.0000001Z"))),
          Map.entry("T9", PropertyValue.of(Instant.parse("9999-12-31T23:59:59.9999999Z"))),
          Map.entry("G", PropertyValue.of(UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833"))),
          Map.entry("Y", PropertyValue.of(new byte[] {0, -1, 127})));

  private static byte[] write(TableEntity entity, MetadataLevel level) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator gen = JsonFactory.builder().build().createGenerator(out)) {
      gen.writeStartObject();
      EntityJson.writeFields(gen, entity, level, null);
      gen.writeEndObject();
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @EnumSource(
      value = MetadataLevel.class,
      names = {"MINIMAL", "FULL"})
  void everyTypeRoundTripsWithMetadata(MetadataLevel level) throws IOException {
    TableEntity entity =
        TableEntity.builder("p", "r")
            .putAll(EVERY_TYPE)
            .timestamp(Instant.parse("2024-05-06T07:08:09.1234567Z"))
            .build();

    EntityJson.ParsedEntity back = EntityJson.read(write(entity, level));

    assertThat(back.partitionKey()).isEqualTo("p");
    assertThat(back.rowKey()).isEqualTo("r");
    assertThat(back.properties()).isEqualTo(entity.properties());
  }

  @ParameterizedTest
  @EnumSource(value = MetadataLevel.class, names = "NONE")
  void withoutMetadataOnlyTheTypesJsonShowsSurviveTheOthersReadAsTheirText(MetadataLevel level)
      throws IOException {
    TableEntity entity = TableEntity.builder("p", "r").putAll(EVERY_TYPE).build();

    Map<String, PropertyValue> back = EntityJson.read(write(entity, level)).properties();

    for (var property : EVERY_TYPE.entrySet()) {
      PropertyValue sent = property.getValue();
      PropertyValue read = back.get(property.getKey());
      boolean shownByJson =
          switch (sent.type()) {
            case STRING, INT32, BOOLEAN -> true;
            case DOUBLE -> Double.isFinite((Double) sent.value());
            default -> false;
          };
      if (shownByJson) {
        assertThat(read).as(property.getKey()).isEqualTo(sent);
      } else {
        assertThat(read.type()).as(property.getKey()).isEqualTo(EdmType.STRING);
      }
    }
    assertThat(back.get("L")).isEqualTo(PropertyValue.of(Long.toString(Long.MAX_VALUE)));
    assertThat(back.get("T")).isEqualTo(PropertyValue.of("1601-01-01T00:00:00.0000001Z"));
    assertThat(back.get("DN")).isEqualTo(PropertyValue.of("NaN"));
  }
}
