package dev.trestle.store.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.testing.RandomEntities;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The hand-written decode of stored documents gives exactly the values, order and errors of the
 * Jackson decode, for documents as Trestle writes them, as PostgreSQL's jsonb gives them back, and
 * for the unusual or malformed ones it leaves to Jackson.
 */
class StoredDocumentDecoderTest {
  private static final List<Set<String>> SELECTS =
      Arrays.asList(
          null,
          Set.of("Str", "Int", "Long", "Dbl"),
          Set.of("Bool", "When", "Id", "Bin"),
          Set.of("A"),
          Set.of("B"));

  private final PropertyCodec codec =
      new PropertyCodec(UnitOrderText::encode, UnitOrderText::decode, UnitOrderText::isPlain);

  @Test
  void randomEntitiesAsWrittenAndAsJsonbGivesThemBackDecodeAsJacksonDecodesThem() throws Exception {
    Random random = new Random(20261127);
    for (TableEntity entity : RandomEntities.generate(random, 500)) {
      String written = codec.encode(entity.properties());
      assertThat(codec.decode(written)).isEqualTo(entity.properties());
      for (String document : List.of(written, StoredDocumentScannerTest.asJsonb(written))) {
        assertSameAsJackson(document);
      }
    }
  }

  @Test
  void unusualButValidDocumentsDecodeAsJacksonDecodesThem() {
    List<String> documents = new ArrayList<>(StoredDocumentScannerTest.UNUSUAL);
    documents.addAll(
        List.of(
            "{\"A\": [\"i\", 1, 2], \"B\": [\"i\", 2, 0], \"C\": [\"i\", 3, 1]}",
            "{\"A\": [\"i\", 1], \"B\": [\"i\", 2, 0], \"C\": [\"i\", 3]}",
            "{\"B\": [\"s\", \"y\", 1], \"A\": [\"s\", \"x\", 0], \"B\": [\"s\", \"z\", 0]}",
            "{\"A\": [\"d\", \"-0.0\", 0], \"B\": [\"d\", \"1.0E-5\", 1], \"C\": [\"d\","
                + " \"1.7976931348623157E308\", 2], \"D\": [\"d\", \"0.1\", 3]}",
            "{\"A\": [\"g\", \"00000000-0000-0000-0000-000000000000\", 0], \"B\": [\"g\","
                + " \"FFFFFFFF-ffff-8000-7FFF-0123456789aB\", 1]}"));
    for (String document : documents) {
      assertSameAsJackson(document);
    }
  }

  @Test
  void manyPropertiesOutOfOrderDecodeAsJacksonDecodesThem() {
    StringBuilder document = new StringBuilder("{");
    for (int i = 0; i < 40; i++) {
      document.append(i == 0 ? "" : ", ").append("\"P").append(i).append("\": [\"i\", ");
      document.append(i).append(", ").append((i * 17) % 40).append(']');
    }
    assertSameAsJackson(document.append('}').toString());
  }

  @Test
  void doublesDecodeToTheBitsDoubleParseDoubleReads() {
    Random random = new Random(7);
    List<Double> doubles =
        new ArrayList<>(
            List.of(
                0.0,
                -0.0,
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE,
                Double.MIN_NORMAL,
                Double.MAX_VALUE,
                0.1,
                1e23,
                9007199254740993.0,
                2.2250738585072011e-308));
    for (int i = 0; i < 20_000; i++) {
      doubles.add(i % 2 == 0 ? Double.longBitsToDouble(random.nextLong()) : i / 7.0);
    }
    for (double value : doubles) {
      String document = codec.encode(Map.of("D", PropertyValue.of(value)));
      PropertyValue decoded = codec.decode(document).get("D");
      assertThat(Double.doubleToRawLongBits((Double) decoded.value()))
          .as(document)
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(Double.toString(value))));
    }
  }

  @Test
  void guidsDecodeAsUuidFromStringReadsThem() {
    Random random = new Random(11);
    for (int i = 0; i < 10_000; i++) {
      UUID id = new UUID(random.nextLong(), random.nextLong());
      String text = i % 2 == 0 ? id.toString() : id.toString().toUpperCase();
      String document = "{\"G\": [\"g\", \"" + text + "\", 0]}";
      assertThat(codec.decode(document).get("G").value()).isEqualTo(UUID.fromString(text));
    }
  }

  @Test
  void malformedDocumentsFailAsTheJacksonDecodeFails() {
    for (String document : StoredDocumentScannerTest.MALFORMED) {
      for (Set<String> select : SELECTS) {
        Throwable jackson = catchThrowable(() -> codec.decodeWithJackson(document, select));
        Throwable decoded = catchThrowable(() -> codec.decode(document, select));
        if (jackson == null) {
          // a property Jackson skips unread is not checked
          assertThat(decoded).as("%s, select %s", document, select).isNull();
          assertThat(codec.decode(document, select))
              .isEqualTo(codec.decodeWithJackson(document, select));
        } else {
          assertThat(decoded)
              .as("%s, select %s", document, select)
              .isInstanceOf(MalformedRowException.class)
              .hasMessage(jackson.getMessage());
        }
      }
    }
  }

  private void assertSameAsJackson(String document) {
    for (Set<String> select : SELECTS) {
      Map<String, PropertyValue> jackson = codec.decodeWithJackson(document, select);
      Map<String, PropertyValue> decoded = codec.decode(document, select);
      assertThat(entries(decoded))
          .as("%s, select %s", document, select)
          .isEqualTo(entries(jackson));
      // the form an entity's builder is handed
      Map<String, PropertyValue> put = new LinkedHashMap<>();
      codec.decode(document, select, put::put);
      assertThat(entries(put)).isEqualTo(entries(jackson));
    }
  }

  private static List<Map.Entry<String, PropertyValue>> entries(Map<String, PropertyValue> map) {
    return List.copyOf(map.entrySet());
  }
}
