package dev.trestle.json;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EntityJsonTest {

  private static EntityJson.ParsedEntity read(String json) {
    return EntityJson.read(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void infersUntypedValuesAndHonoursAnnotationsOnEitherSide() {
    var parsed =
        read(
            """
        {"PartitionKey":"p","RowKey":"r","Timestamp":"2001-01-01T00:00:00Z","odata.etag":"x",
         "S":"s","I":5,"Big":3000000000,"D":2.5,"B":true,"N":null,
         "L":"9007199254740993","L@odata.type":"Edm.Int64",
         "T@odata.type":"Edm.DateTime","T":"2020-02-29T12:34:56.12345678Z",
         "G@odata.type":"Edm.Guid","G":"C9DA6455-213D-42C9-9A79-3E9149A57833",
         "Y@odata.type":"Edm.Binary","Y":"AAH/",
         "W@odata.type":"Edm.Double","W":5,
         "X@odata.type":"Edm.Double","X":"-Infinity"}
        """);
    assertThat(parsed.partitionKey()).isEqualTo("p");
    assertThat(parsed.rowKey()).isEqualTo("r");
    Map<String, PropertyValue> p = parsed.properties();
    assertThat(p.keySet()).containsExactly("S", "I", "Big", "D", "B", "L", "T", "G", "Y", "W", "X");
    assertThat(p.get("I")).isEqualTo(PropertyValue.of(5));
    assertThat(p.get("Big")).isEqualTo(PropertyValue.of(3.0e9));
    assertThat(p.get("D")).isEqualTo(PropertyValue.of(2.5));
    assertThat(p.get("L")).isEqualTo(PropertyValue.of(9007199254740993L));
    assertThat(p.get("T"))
        .isEqualTo(PropertyValue.of(Instant.parse("2020-02-29T12:34:56.1234567Z")));
    assertThat(p.get("G"))
        .isEqualTo(PropertyValue.of(UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833")));
    assertThat(p.get("Y")).isEqualTo(PropertyValue.of(new byte[] {0, 1, -1}));
    assertThat(p.get("W")).isEqualTo(PropertyValue.of(5.0));
    assertThat(p.get("X")).isEqualTo(PropertyValue.of(Double.NEGATIVE_INFINITY));
  }

  @Test
  void booleanStringsAreReadInAnyCase() {
    var parsed =
        read(
            """
        {"A@odata.type":"Edm.Boolean","A":"TRUE","B@odata.type":"Edm.Boolean","B":"False",
         "C@odata.type":"Edm.Boolean","C":"true"}
        """);
    assertThat(parsed.properties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "A",
                PropertyValue.of(true),
                "B",
                PropertyValue.of(false),
                "C",
                PropertyValue.of(true)));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> read("{\"A@odata.type\":\"Edm.Boolean\",\"A\":\"yes\"}"));
  }

  /**
   * A double too large for its type is refused, as Azure refuses it (Azurite issue 2387), typed or
   * not, as a number or a string; only the special names stand for the infinities, and a number too
   * small rounds to zero.
   */
  @Test
  void aDoubleBeyondTheRangeIsInvalidInputNotAnInfinity() {
    for (String body :
        new String[] {
          "{\"D@odata.type\":\"Edm.Double\",\"D\":\"1.797693134862316e308\"}",
          "{\"D@odata.type\":\"Edm.Double\",\"D\":\"-1e309\"}",
          "{\"D@odata.type\":\"Edm.Double\",\"D\":1e309}",
          "{\"D\":1e400}"
        }) {
      assertFails(TableErrorCode.INVALID_INPUT, () -> read(body));
    }
    assertThat(
            read("{\"D@odata.type\":\"Edm.Double\",\"D\":\"1.7976931348623157e308\"}").properties())
        .containsEntry("D", PropertyValue.of(Double.MAX_VALUE));
    assertThat(read("{\"D\":1e-400}").properties()).containsEntry("D", PropertyValue.of(0.0));
  }

  @Test
  void anInvalidValueGetsTheServiceMessageFirst() {
    assertThatThrownBy(() -> read("{\"T@odata.type\":\"Edm.DateTime\",\"T\":\"\"}"))
        .hasMessage(
            "An error occurred while processing this request. The value of property 'T' is not a valid "
                + "Edm.DateTime.");
  }

  @Test
  void badInputGetsTheServiceCodes() {
    assertFails(TableErrorCode.INVALID_INPUT, () -> read("{\"PartitionKey\":\"p\","));
    assertFails(TableErrorCode.INVALID_INPUT, () -> read("[1]"));
    assertFails(TableErrorCode.INVALID_INPUT, () -> read(""));
    assertFails(TableErrorCode.INVALID_INPUT, () -> read("{\"A\":1}x"));
    assertFails(TableErrorCode.INVALID_INPUT, () -> read("{\"A\":{\"b\":1}}"));
    assertFails(TableErrorCode.DUPLICATE_PROPERTIES_SPECIFIED, () -> read("{\"A\":1,\"A\":2}"));
    assertFails(
        TableErrorCode.DUPLICATE_PROPERTIES_SPECIFIED,
        () -> read("{\"A@odata.type\":\"Edm.Int64\",\"A@odata.type\":\"Edm.Int32\",\"A\":\"5\"}"));
    assertFails(
        TableErrorCode.INVALID_INPUT, () -> read("{\"A@odata.type\":\"Edm.Int64\",\"A\":\"12x\"}"));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> read("{\"A@odata.type\":\"Edm.Int32\",\"A\":3000000000}"));
    assertFails(
        TableErrorCode.INVALID_INPUT, () -> read("{\"A@odata.type\":\"Edm.Guid\",\"A\":\"nope\"}"));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> read("{\"A@odata.type\":\"Edm.Binary\",\"A\":\"***\"}"));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> read("{\"A@odata.type\":\"Edm.DateTime\",\"A\":\"yesterday\"}"));
    assertFails(
        TableErrorCode.INVALID_INPUT,
        () -> read("{\"A@odata.type\":\"Edm.DateTime\",\"A\":\"2021-02-29T00:00:00Z\"}"));
    assertFails(
        TableErrorCode.OUT_OF_RANGE_INPUT,
        () -> read("{\"A@odata.type\":\"Edm.DateTime\",\"A\":\"1600-12-31T23:59:59Z\"}"));
    assertFails(
        TableErrorCode.INVALID_INPUT, () -> read("{\"A@odata.type\":\"Edm.Int16\",\"A\":1}"));
    assertFails(
        TableErrorCode.PRIMARY_KEY_PROPERTY_IS_INVALID_TYPE, () -> read("{\"PartitionKey\":5}"));
  }
}
