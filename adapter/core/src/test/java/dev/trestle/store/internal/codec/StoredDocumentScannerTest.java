package dev.trestle.store.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.EdmType;
import dev.trestle.TableEntity;
import dev.trestle.json.internal.PropertySink;
import dev.trestle.testing.RandomEntities;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The hand-written read of stored documents hands a sink exactly what the Jackson read does, for
 * documents as Trestle writes them, as PostgreSQL's jsonb gives them back, and for the unusual or
 * malformed ones it leaves to Jackson.
 */
class StoredDocumentScannerTest {
  private static final List<Set<String>> SELECTS =
      Arrays.asList(null, Set.of("Str", "Int", "Long", "Dbl"), Set.of("Bool", "When", "Id", "Bin"));

  /**
   * Valid documents in forms Trestle does not write, some of which the hand-written reads leave.
   */
  static final List<String> UNUSUAL =
      List.of(
          "{}",
          " { } ",
          "{\"A\": [\"s\", \"quote\\\" and \\\\ and \\n\", 0]}",
          "{\"\\u0041\": [\"i\", 1, 0]}",
          "{\"A\": [\"\\u0069\", 1, 0]}",
          "{\"A\": [\"i\", -2147483648, 1], \"B\": [\"i\", 2147483647, 0]}",
          "{\"A\": [\"l\", -9223372036854775808, 0], \"B\": [\"l\", 9223372036854775807, 1]}",
          "{\"A\": [\"i\", -0, 0]}",
          "{\"A\": [\"d\", \"1d\", 0], \"B\": [\"d\", \"-NaN\", 1], \"C\": [\"d\", \"+1.5\", 2]}",
          "{\"A\": [\"d\", \"-Infinity\", 0], \"B\": [\"d\", \"4.9E-324\", 1]}",
          "{\"A\": [\"d\", \"NaN\", 0], \"B\": [\"d\", \"Infinity\", 1], \"C\": [\"d\", \"1\", 2]}",
          "{\"A\": [\"g\", \"ABCDEF01-2345-6789-abcd-ef0123456789\", 0]}",
          "{\"A\": [\"x\", \"ABcd\", 0], \"B\": [\"x\", \"\", 1]}",
          "{\"A\": [\"b\", true], \"B\": [\"b\", false]}",
          "{\"A\": [\"b\", true, 5, \"extra\"], \"B\": [\"b\", false, 1.5]}",
          "{\"A\": [\"t\", 0, 0], \"B\": [\"t\", 2534023007999999999, 1]}",
          "{\"A\": [\"s\", \"x\", 0], \"A\": [\"s\", \"y\", 1]}",
          "{\"A\": [\"s\", \"x\", 0]} trailing",
          "{\"A\":\t[\"s\",\r\n\"x\" ,0 ] }",
          "{\"A\": [\"s\", \"\u00e9\u07ff\u0800\ud7ff\", 0], \"\u00c9\": [\"i\", 1, 1]}",
          "{\"A\": [\"s\", \"\ue000\uffff\", 0], \"B\": [\"s\", \"\\u0001\\u0001x\", 1]}",
          "{\"A\": [\"s\", \"\ud800\udc00 pair\", 0]}");

  /** Documents no reader accepts. */
  static final List<String> MALFORMED =
      List.of(
          "[1, 2]",
          "{\"A\": \"x\"}",
          "{\"A\": [\"z\", 1, 0]}",
          "{\"A\": [\"t\", \"yesterday\", 0]}",
          "{\"A\": [\"t\", 4000000000000000000, 0]}",
          "{\"A\": [\"i\", 3000000000, 0]}",
          "{\"A\": [\"i\", \"seven\", 0]}",
          "{\"A\": [\"l\", \"12\", 0]}",
          "{\"A\": [\"b\", \"yes\", 0]}",
          "{\"A\": [\"d\", \"one\", 0]}",
          "{\"A\": [\"g\", \"not-a-guid\", 0]}",
          "{\"A\": [\"x\", \"zz\", 0]}",
          "{\"A\": [\"s\"]}",
          "",
          "{\"A\": [\"i\", 01, 0]}",
          "{\"A\": [\"i\", 1.0, 0]}",
          "{\"A\": [\"i\", 1, 01]}",
          "{\"A\": [\"i\", 1, 99999999999]}",
          "{\"A\": [\"l\", 9223372036854775808, 0]}",
          "{\"A\": [\"b\", truex, 0]}",
          "{\"A\": [\"s\", \"tab\there\", 0]}",
          "{\"A\": [\"g\", \"abcdef01-2345-6789-abcd-ef012345678g\", 0]}",
          "{\"A\": [\"x\", \"abc\", 0]}",
          "{\"A\": [\"s\", \"x\", 0]");

  private final PropertyCodec codec =
      new PropertyCodec(UnitOrderText::encode, UnitOrderText::decode, UnitOrderText::isPlain);
  private final StoredProperties stored =
      new StoredProperties(
          UnitOrderText::decode, UnitOrderText::isPlain, UnitOrderText::isPlainUtf8);

  @Test
  void randomEntitiesAsWrittenAndAsJsonbGivesThemBackReadAsJacksonReadsThem() throws Exception {
    Random random = new Random(20261126);
    for (TableEntity entity : RandomEntities.generate(random, 500)) {
      String written = codec.encode(entity.properties());
      for (String document : List.of(written, asJsonb(written))) {
        for (Set<String> select : SELECTS) {
          assertSameAsJackson(document, select);
        }
      }
    }
  }

  @Test
  void unusualButValidDocumentsReadAsJacksonReadsThem() throws Exception {
    for (String document : UNUSUAL) {
      for (Set<String> select : Arrays.asList(null, Set.of("A"), Set.of("B"))) {
        assertSameAsJackson(document, select);
      }
    }
  }

  /**
   * The UTF-8 scan reads a string eight bytes at a time: a quote (escaped), a backslash, a control
   * character or a non-ASCII character at each position of strings of 0 to 40 characters, after
   * names of 1 to 8 characters, so that it falls on every byte of a word and across words.
   */
  @Test
  void stringsWithAnEscapeOrANonAsciiCharacterAnywhereReadAsJacksonReadsThem() throws Exception {
    List<String> specials =
        List.of("\\\"", "\\\\", "\\n", "\\u0001\\u0001", "\u00e9", "\u20ac", "\ud83d\ude00");
    for (int nameLength = 1; nameLength <= 8; nameLength++) {
      String name = "N".repeat(nameLength);
      for (int length = 0; length <= 40; length++) {
        String plain = "abcdefghij".repeat(5).substring(0, length);
        assertSameAsJackson("{\"" + name + "\": [\"s\", \"" + plain + "\", 0]}", null);
        for (int at = 0; at < length; at++) {
          for (String special : specials) {
            String value = plain.substring(0, at) + special + plain.substring(at + 1);
            assertSameAsJackson("{\"" + name + "\": [\"s\", \"" + value + "\", 0]}", null);
          }
          String raw = plain.substring(0, at) + "\t" + plain.substring(at + 1);
          assertFailsAsJackson("{\"" + name + "\": [\"s\", \"" + raw + "\", 0]}");
        }
      }
    }
  }

  @Test
  void malformedDocumentsFailAsTheJacksonReadFails() throws Exception {
    for (String document : MALFORMED) {
      assertFailsAsJackson(document);
    }
  }

  private void assertFailsAsJackson(String document) {
    Throwable jackson = catchThrowable(() -> read(document, null, Path.JACKSON));
    Throwable scanned = catchThrowable(() -> read(document, null, Path.CHARS));
    Throwable bytes = catchThrowable(() -> read(document, null, Path.UTF8));
    assertThat(jackson).as(document).isInstanceOf(MalformedRowException.class);
    assertThat(scanned)
        .as(document)
        .isInstanceOf(MalformedRowException.class)
        .hasMessage(jackson.getMessage());
    assertThat(bytes)
        .as(document)
        .isInstanceOf(MalformedRowException.class)
        .hasMessage(jackson.getMessage());
  }

  private void assertSameAsJackson(String document, Set<String> select) throws Exception {
    List<String> jackson = read(document, select, Path.JACKSON);
    assertThat(read(document, select, Path.CHARS))
        .as("%s, select %s", document, select)
        .isEqualTo(jackson);
    assertThat(read(document, select, Path.UTF8))
        .as("UTF-8 %s, select %s", document, select)
        .isEqualTo(jackson);
  }

  private enum Path {
    JACKSON,
    CHARS,
    UTF8
  }

  /** What the sink was handed, one line per property. */
  private List<String> read(String document, Set<String> select, Path path) throws Exception {
    List<String> lines = new ArrayList<>();
    PropertySink sink =
        new PropertySink() {
          @Override
          public void property(String name, EdmType type, String wire) {
            lines.add(name + " " + type + " " + wire);
          }

          @Override
          public void text(String name, EdmType type, char[] text, int offset, int length) {
            lines.add(name + " " + type + " " + new String(text, offset, length));
          }

          @Override
          public void utf8(String name, EdmType type, byte[] text, int offset, int length) {
            lines.add(
                name + " " + type + " " + new String(text, offset, length, StandardCharsets.UTF_8));
          }
        };
    switch (path) {
      case JACKSON -> stored.transcodeWithJackson(document, select, sink);
      case CHARS -> stored.transcode(document, select, sink);
      case UTF8 -> stored.transcode(document.getBytes(StandardCharsets.UTF_8), select, sink);
    }
    return lines;
  }

  /**
   * The document as PostgreSQL's jsonb writes it out: keys shorter first, then by their text, and a
   * space after each colon and comma.
   */
  static String asJsonb(String document) throws IOException {
    Map<String, List<String>> properties =
        new TreeMap<>(
            Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
    try (JsonParser json = PropertyCodec.JSON.createParser(document)) {
      json.nextToken();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        json.nextToken();
        List<String> elements = new ArrayList<>();
        while (json.nextToken() != JsonToken.END_ARRAY) {
          elements.add(asJson(gen -> gen.copyCurrentEvent(json)));
        }
        properties.put(name, elements);
      }
    }
    StringJoiner out = new StringJoiner(", ", "{", "}");
    for (Map.Entry<String, List<String>> property : properties.entrySet()) {
      out.add(
          asJson(gen -> gen.writeString(property.getKey()))
              + ": ["
              + String.join(", ", property.getValue())
              + "]");
    }
    return out.toString();
  }

  private interface Writes {
    void write(JsonGenerator gen) throws IOException;
  }

  private static String asJson(Writes writes) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator gen = PropertyCodec.JSON.createGenerator(out)) {
      writes.write(gen);
    }
    return out.toString();
  }
}
