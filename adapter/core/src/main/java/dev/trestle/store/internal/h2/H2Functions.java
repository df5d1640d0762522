package dev.trestle.store.internal.h2;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.codec.StoredType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Java functions that H2 calls from SQL (registered with {@code CREATE ALIAS} in the H2
 * migrations). They read a property from the stored JSON without materialising the document and
 * compare it with the service's semantics. Their names and signatures are part of the H2 schema:
 * change them only with a new migration.
 */
public final class H2Functions {
  private H2Functions() {}

  /**
   * True when the document has {@code property} with a type tag among {@code acceptedTags} and its
   * value compares to the literal (given as its type tag and canonical text) as {@code operator}
   * says. Never null.
   */
  public static boolean compare(
      String document,
      String property,
      String acceptedTags,
      String operator,
      String literalTag,
      String literalText) {
    if (document == null) {
      return false;
    }
    String[] stored = LAST_DOCUMENT.get().lookup(document, property);
    if (stored == null || !acceptedTags.contains(stored[0])) {
      return false;
    }
    return holds(
        ComparisonOperator.valueOf(operator),
        compare(stored[1], StoredType.ofTag(literalTag), literalText));
  }

  /**
   * True when the document matches a filter over user properties ({@link FilterProgram}'s text):
   * one call per row, which reads the document once, instead of one {@link #compare} per
   * comparison. Never null.
   */
  public static boolean matches(String document, String program) {
    if (document == null) {
      return false;
    }
    return LAST_PROGRAM.get().matches(document, program);
  }

  /** The program a thread ran last (compiled once per statement) and its reading of a row. */
  private static final ThreadLocal<Evaluation> LAST_PROGRAM =
      ThreadLocal.withInitial(Evaluation::new);

  private static final class Evaluation {
    private String text;
    private FilterProgram program;
    private final DocumentValues values = new DocumentValues();

    boolean matches(String document, String programText) {
      // H2 hands over the same String for a bound value row after row
      if (programText != text) {
        if (!programText.equals(text)) {
          program = FilterProgram.read(programText);
        }
        text = programText;
      }
      values.read(document, program.properties);
      return program.root.test(values);
    }
  }

  /**
   * The property's {type tag, text} as a JSON parser reads it from the document, or null when the
   * document does not have it.
   */
  static String[] find(String document, String property) {
    String[] value = ParsedDocument.find(document, property);
    return value == ParsedDocument.ABSENT ? null : value;
  }

  /**
   * The text of {@code property} when the document holds it as a String, else null (Trestle's
   * string functions test it in SQL).
   */
  public static String string(String document, String property) {
    if (document == null) {
      return null;
    }
    String[] stored = LAST_DOCUMENT.get().lookup(document, property);
    return stored != null && stored[0].equals(StoredType.STRING.tag) ? stored[1] : null;
  }

  /**
   * A condition with several comparisons calls {@link #compare} several times per row with the same
   * document; each thread keeps the properties it already looked up in the last document (by
   * identity, as H2 hands over the same string).
   */
  private static final ThreadLocal<ParsedDocument> LAST_DOCUMENT =
      ThreadLocal.withInitial(ParsedDocument::new);

  private static final class ParsedDocument {
    /** Cached for a property the document does not have. */
    private static final String[] ABSENT = new String[0];

    private String document;
    private final Map<String, String[]> found = new HashMap<>();

    /** The property's {type tag, canonical text}, or null when the document does not have it. */
    String[] lookup(String candidate, String property) {
      if (candidate != document) {
        found.clear();
        document = candidate;
      }
      String[] value = found.get(property);
      if (value == null) {
        value = find(candidate, property);
        found.put(property, value);
      }
      return value == ABSENT ? null : value;
    }

    /**
     * Reads {@code {"name":[tag,value,position],...}} up to the wanted property only, skipping the
     * others without turning their values into Strings (most of a filter scan's time on H2 went
     * there).
     */
    private static String[] find(String document, String property) {
      try (JsonParser json = PropertyCodec.JSON.createParser(document)) {
        json.nextToken();
        while (json.nextToken() == JsonToken.FIELD_NAME) {
          String name = json.currentName();
          json.nextToken();
          if (!name.equals(property)) {
            json.skipChildren();
            continue;
          }
          json.nextToken();
          String tag = json.getText();
          json.nextToken();
          return new String[] {tag, json.getText()};
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return ABSENT;
    }
  }

  /** Three-way comparison, or null when the values are unordered (a NaN is involved). */
  private static Integer compare(String stored, StoredType literalType, String literal) {
    return switch (literalType) {
      case STRING, GUID, BINARY -> stored.compareTo(literal);
      case INT32, INT64, DATE_TIME -> Long.compare(Long.parseLong(stored), Long.parseLong(literal));
      case BOOLEAN -> Boolean.compare(Boolean.parseBoolean(stored), Boolean.parseBoolean(literal));
      case DOUBLE -> {
        double a = Double.parseDouble(stored);
        double b = Double.parseDouble(literal);
        yield Double.isNaN(a) || Double.isNaN(b) ? null : (a < b ? -1 : a > b ? 1 : 0);
      }
    };
  }

  /** Whether a three-way comparison (null: unordered) satisfies the operator. */
  static boolean holds(ComparisonOperator operator, Integer comparison) {
    if (comparison == null) {
      return operator == ComparisonOperator.NE;
    }
    return operator.holds(comparison);
  }
}
