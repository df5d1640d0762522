package dev.trestle.store.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.RandomEntities;
import dev.trestle.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The Java scalar document equals PostgreSQL's {@code trestle_scalars()} (the definition's one
 * home) on every type, the 64-character limit's edges counted as PostgreSQL counts, escapes, and
 * documents as Trestle writes them and as jsonb gives them back, from text and from UTF-8 bytes;
 * and so does its signature, {@code trestle_string_signature()}'s.
 */
class ScalarDocumentTest {
  private final PropertyCodec codec =
      new PropertyCodec(UnitOrderText::encode, UnitOrderText::decode, UnitOrderText::isPlain);

  @Test
  void copiesEachValueUnderItsTaggedNameAndMarksLongStrings() {
    assertThat(ScalarDocument.of("{}")).isEqualTo("{}");
    assertThat(ScalarDocument.of(" { } ")).isEqualTo("{}");
    assertThat(ScalarDocument.of("{\"Price\":[\"i\",7,0],\"Name\":[\"s\",\"true\",1]}"))
        .isEqualTo("{\"iPrice\":7,\"sName\":\"true\"}");
    assertThat(ScalarDocument.of("{\"A\": [\"s\", \"" + "a".repeat(65) + "\", 0]}"))
        .isEqualTo("{\"sA\":true}");
    assertThat(ScalarDocument.of("{\"A\": [\"x\", \"" + "ab".repeat(32) + "\", 0]}"))
        .isEqualTo("{\"xA\":\"" + "ab".repeat(32) + "\"}");
    // 64 escaped characters take 128 units of text but are 64 characters
    assertThat(ScalarDocument.of("{\"A\":[\"s\",\"" + "\\n".repeat(64) + "\",0]}"))
        .isEqualTo("{\"sA\":\"" + "\\n".repeat(64) + "\"}");
    assertThat(ScalarDocument.of("{\"A\":[\"s\",\"" + "\\n".repeat(65) + "\",0]}"))
        .isEqualTo("{\"sA\":true}");
    // an escaped surrogate pair is one character, as PostgreSQL stores it
    assertThat(ScalarDocument.of("{\"A\":[\"s\",\"" + "\\ud83d\\ude00".repeat(64) + "\",0]}"))
        .isEqualTo("{\"sA\":\"" + "\\ud83d\\ude00".repeat(64) + "\"}");
  }

  @Test
  void refusesWhatIsNotAStoredDocument() {
    for (String malformed :
        List.of(
            "",
            "[]",
            "{\"A\":[\"q\",1,0]}",
            "{\"A\":[\"s\",\"x\",0]",
            "{\"A\":[\"s\"]} x",
            "{\"A\":[\"s\",\"\\u12\",0]}",
            "{\"A\":[\"s\",\"\\uzzzz\",0]}")) {
      assertThatThrownBy(() -> ScalarDocument.of(malformed))
          .as(malformed)
          .isInstanceOf(MalformedRowException.class);
    }
  }

  @Test
  void signsEachCopiedStringByItsNameAndStoredTextOnly() {
    String shortValue = "{\"A\":[\"s\",\"x\",0],\"N\":[\"i\",1,1],\"G\":[\"g\",\"x\",2]}";
    assertThat(ScalarDocument.row(shortValue).signature())
        .isEqualTo(ScalarDocument.stringBits("A", "x"))
        .isNotZero();
    assertThat(Long.bitCount(ScalarDocument.stringBits("A", "x"))).isBetween(1, 2);
    assertThat(ScalarDocument.row("{\"A\":[\"s\",\"a\\\"\\u00e9\",0]}").signature())
        .isEqualTo(ScalarDocument.stringBits("A", "a\"\u00e9"));
    assertThat(ScalarDocument.row("{\"A\":[\"s\",\"" + "a".repeat(65) + "\",0]}").signature())
        .isZero();
    assertThat(ScalarDocument.row("{\"A\":[\"x\",\"AAAA\",0],\"B\":[\"b\",true,1]}").signature())
        .isZero();
    assertThat(ScalarDocument.row("{}").signature()).isZero();
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  void edgeValuesEqualTrestleScalarsOnPostgreSql(DataSource dataSource) throws SQLException {
    List<String> documents = new ArrayList<>();
    documents.add("{}");
    documents.add(codec.encode(allTypes()));
    for (Map<String, PropertyValue> strings : edgeStrings()) {
      documents.add(codec.encode(strings));
    }
    documents.add("{\"A\":[\"s\",\"" + "\\\"".repeat(64) + "\",0],\"B\":[\"s\",\"\\u00e9\",1]}");
    documents.add("{\"A\":[\"s\",\"" + "\\\"".repeat(65) + "\",0]}");
    documents.add("{\"A\":[\"s\",\"" + "\\ud83d\\ude00".repeat(65) + "\",0]}");
    documents.add("{\"a\\\"b\":[\"s\",\"v\",0],\"\\u00e9\":[\"i\",1,1]}");
    documents.add("{\"A\":[\"s\",\"x\"],\"B\":[\"i\",-0,1,2]}");
    assertEqualToSql(dataSource, documents);
  }

  @DatabaseTest(TestDatabase.Kind.POSTGRESQL_SCALAR_STORE)
  void randomEntitiesEqualTrestleScalarsOnPostgreSql(DataSource dataSource) throws SQLException {
    List<String> documents = new ArrayList<>();
    for (TableEntity entity : RandomEntities.generate(new Random(20261127), 300)) {
      documents.add(codec.encode(entity.properties()));
    }
    assertEqualToSql(dataSource, documents);
  }

  private static Map<String, PropertyValue> allTypes() {
    Map<String, PropertyValue> p = new LinkedHashMap<>();
    p.put("S", PropertyValue.of("plain"));
    p.put("STrue", PropertyValue.of("true"));
    p.put("SEmpty", PropertyValue.of(""));
    p.put("I", PropertyValue.of(Integer.MIN_VALUE));
    p.put("IMax", PropertyValue.of(Integer.MAX_VALUE));
    p.put("L", PropertyValue.of(Long.MIN_VALUE));
    p.put("LMax", PropertyValue.of(Long.MAX_VALUE));
    p.put("DNaN", PropertyValue.of(Double.NaN));
    p.put("DNegZero", PropertyValue.of(-0.0));
    p.put("DBig", PropertyValue.of(1e300));
    p.put("DTiny", PropertyValue.of(4.9E-324));
    p.put("DInf", PropertyValue.of(Double.NEGATIVE_INFINITY));
    p.put("BTrue", PropertyValue.of(true));
    p.put("BFalse", PropertyValue.of(false));
    p.put("T", PropertyValue.of(Instant.parse("1601-01-01T00:00:00Z")));
    p.put("TMax", PropertyValue.of(Instant.parse("9999-12-31T23:59:59.9999999Z")));
    p.put("G", PropertyValue.of(UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e")));
    p.put("X", PropertyValue.of(new byte[0]));
    p.put("X32", PropertyValue.of(new byte[32]));
    p.put("X33", PropertyValue.of(new byte[33]));
    return p;
  }

  /** Strings around the limit, in characters as PostgreSQL counts the stored text. */
  private static List<Map<String, PropertyValue>> edgeStrings() {
    List<Map<String, PropertyValue>> all = new ArrayList<>();
    String emoji = new String(Character.toChars(0x1F600)); // stored as two BMP characters
    String high = "\uF900"; // stored as U+100F900: one character, two Java chars
    for (String unit : List.of("a", emoji, high, "\u0000", "\u0001", "\"", "\\", "\n", "\u00e9")) {
      for (int count : new int[] {31, 32, 33, 63, 64, 65, 200}) {
        Map<String, PropertyValue> p = new LinkedHashMap<>();
        p.put("S", PropertyValue.of(unit.repeat(count)));
        p.put("Mixed", PropertyValue.of("a".repeat(count - 1) + unit));
        all.add(p);
      }
    }
    return all;
  }

  /**
   * Each document's Java scalar document, from its text and its UTF-8 bytes, and the same from the
   * text jsonb gives back, equal (as jsonb) trestle_scalars of it; their signatures equal
   * trestle_string_signature of it.
   */
  private static void assertEqualToSql(DataSource dataSource, List<String> documents)
      throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "select cast(? as jsonb) = trestle_scalars(cast(? as jsonb)),"
                    + " trestle_scalars(cast(? as jsonb))::text, cast(? as jsonb)::text")) {
      for (String document : documents) {
        String java = ScalarDocument.of(document);
        assertThat(ScalarDocument.of(document.getBytes(StandardCharsets.UTF_8)))
            .as(document)
            .isEqualTo(java);
        statement.setString(1, java);
        statement.setString(2, document);
        statement.setString(3, document);
        statement.setString(4, document);
        String asJsonb;
        try (ResultSet row = statement.executeQuery()) {
          row.next();
          assertThat(row.getBoolean(1))
              .as("Java %s, SQL %s, of %s", java, row.getString(2), document)
              .isTrue();
          asJsonb = row.getString(3);
        }
        assertSignatureEqualsSql(connection, document, asJsonb);
        String fromJsonb = ScalarDocument.of(asJsonb);
        assertThat(ScalarDocument.of(asJsonb.getBytes(StandardCharsets.UTF_8)))
            .isEqualTo(fromJsonb);
        statement.setString(1, fromJsonb);
        statement.setString(2, document);
        statement.setString(3, document);
        statement.setString(4, document);
        try (ResultSet row = statement.executeQuery()) {
          row.next();
          assertThat(row.getBoolean(1))
              .as("Java %s from jsonb's %s, SQL %s", fromJsonb, asJsonb, row.getString(2))
              .isTrue();
        }
      }
    }
  }

  private static void assertSignatureEqualsSql(
      Connection connection, String document, String asJsonb) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("select trestle_string_signature(cast(? as jsonb))")) {
      statement.setString(1, document);
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        long sql = row.getLong(1);
        assertThat(ScalarDocument.row(document).signature()).as(document).isEqualTo(sql);
        assertThat(ScalarDocument.row(document.getBytes(StandardCharsets.UTF_8)).signature())
            .as(document)
            .isEqualTo(sql);
        assertThat(ScalarDocument.row(asJsonb).signature()).as(asJsonb).isEqualTo(sql);
      }
    }
  }
}
