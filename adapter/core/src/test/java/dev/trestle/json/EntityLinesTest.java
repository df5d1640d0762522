package dev.trestle.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EntityLinesTest {

  @Test
  void everyTypeAndEdgeValueRoundTrips() {
    TableEntity entity =
        TableEntity.builder("p\u00e9", "r'1")
            .put("Text", "line\nbreak \u263a")
            .put("Empty", "")
            .put("Int32Min", Integer.MIN_VALUE)
            .put("Int64Max", Long.MAX_VALUE)
            .put("Int64Small", 5L)
            .put("NaN", Double.NaN)
            .put("PlusInf", Double.POSITIVE_INFINITY)
            .put("MinusInf", Double.NEGATIVE_INFINITY)
            .put("NegZero", -0.0)
            .put("WholeDouble", 2.0)
            .put("Tiny", Double.MIN_VALUE)
            .put("Flag", false)
            .put("When", Instant.parse("1601-01-01T00:00:00.0000001Z"))
            .put("Late", Instant.parse("9999-12-31T23:59:59.9999999Z"))
            .put("Id", UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833"))
            .put("Bytes", new byte[] {0, -1, 127})
            .put("NoBytes", new byte[0])
            .build();

    TableEntity back = EntityLines.read(EntityLines.write(entity));

    assertThat(back).isEqualTo(entity);
    assertThat(back.properties().keySet()).containsExactlyElementsOf(entity.properties().keySet());
  }

  @Test
  void writesTheServiceTypedFormat() {
    TableEntity entity =
        TableEntity.builder("p", "r")
            .put("A", 1)
            .put("B", 2L)
            .put("C", 1.5)
            .put("D", "x")
            .put("E", true)
            .timestamp(Instant.parse("2024-05-06T07:08:09.1234567Z"))
            .build();
    assertThat(EntityLines.write(entity))
        .isEqualTo(
            "{\"PartitionKey\":\"p\",\"RowKey\":\"r\","
                + "\"Timestamp\":\"2024-05-06T07:08:09.1234567Z\",\"Timestamp@odata.type\":\"Edm.DateTime\","
                + "\"A\":1,\"B\":\"2\",\"B@odata.type\":\"Edm.Int64\",\"C\":1.5,\"C@odata.type\":\"Edm.Double\","
                + "\"D\":\"x\",\"E\":true}");
  }

  @Test
  void readsUntypedNumbersAsTheServiceDoesAndKeepsTheTimestampApartFromProperties() {
    TableEntity entity =
        EntityLines.read(
            "{\"odata.etag\":\"W/x\",\"PartitionKey\":\"p\",\"RowKey\":\"r\","
                + "\"Timestamp\":\"2024-01-01T00:00:00Z\",\"I\":7,\"D\":7.5,\"Big\":3000000000,\"Null\":null}");
    assertThat(entity.properties()).containsOnlyKeys("I", "D", "Big");
    assertThat(entity.property("I")).contains(PropertyValue.of(7));
    assertThat(entity.property("D")).contains(PropertyValue.of(7.5));
    assertThat(entity.property("Big")).contains(PropertyValue.of(3e9));
    assertThat(entity.timestamp()).isEqualTo(java.time.Instant.parse("2024-01-01T00:00:00Z"));
  }

  @Test
  void badLinesNameTheProblemWithoutEchoingValues() {
    assertThatThrownBy(() -> EntityLines.read("{\"PartitionKey\":\"p\""))
        .hasMessageStartingWith("not JSON");
    assertThatThrownBy(() -> EntityLines.read("[1]")).hasMessage("not a JSON object");
    assertThatThrownBy(() -> EntityLines.read("{\"RowKey\":\"r\"}"))
        .hasMessage("PartitionKey is missing or not a string");
    assertThatThrownBy(
            () ->
                EntityLines.read(
                    "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":\"12x\",\"N@odata.type\":\"Edm.Int64\"}"))
        .hasMessage("property 'N' is not a valid Edm.Int64");
    assertThatThrownBy(
            () ->
                EntityLines.read(
                    "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":1,\"N@odata.type\":\"Edm.Decimal\"}"))
        .hasMessage("property 'N' has unknown type 'Edm.Decimal'");
    assertThatThrownBy(
            () -> EntityLines.read("{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"N\":{\"a\":1}}"))
        .hasMessageContaining("no nested values");
  }

  /** A line any JSON tool wrote (spaces after the colons, the annotation first) keeps it too. */
  @Test
  void theTimestampIsReadWhateverTheWhitespaceAndABadOneIsRefused() {
    for (String line :
        List.of(
            "{\"PartitionKey\": \"p\", \"RowKey\": \"r\", \"Timestamp\": \"2020-01-01T00:00:00.1Z\"}",
            "{ \"Timestamp@odata.type\" : \"Edm.DateTime\", \"Timestamp\" :\n"
                + " \"2020-01-01T00:00:00.1Z\", \"PartitionKey\":\"p\",\"RowKey\":\"r\"}")) {
      assertThat(EntityLines.read(line).timestamp())
          .as(line)
          .isEqualTo(java.time.Instant.parse("2020-01-01T00:00:00.1Z"));
    }
    assertThat(EntityLines.read("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}").timestamp()).isNull();
    assertThatThrownBy(
            () ->
                EntityLines.read(
                    "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"Timestamp\":\"garbage\"}"))
        .hasMessage("property 'Timestamp' is not a valid Edm.DateTime");
  }
}
