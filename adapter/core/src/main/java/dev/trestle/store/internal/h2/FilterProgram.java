package dev.trestle.store.internal.h2;

import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterExpression.And;
import dev.trestle.filter.FilterExpression.Comparison;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.filter.FilterExpression.Constant;
import dev.trestle.filter.FilterExpression.Not;
import dev.trestle.filter.FilterExpression.Or;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.database.TypedComparison;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A filter over user properties as one text, bound as one value of {@code trestle_matches} (so that
 * H2 calls one function per row, not one per comparison, and the document is read once), and
 * compiled back into a tree once per statement. The text is prefix notation: {@code &} and {@code
 * |} before their two operands, {@code !} before its one, {@code T} and {@code F}, and {@code c}
 * for a {@link TypedComparison}: the operator's ordinal digit, the property, the accepted type
 * tags, the literal's tag (one letter) and the literal's canonical text ({@link StoredType#text}),
 * each text as its length, a colon and its characters.
 */
final class FilterProgram {
  private static final ComparisonOperator[] OPERATORS = ComparisonOperator.values();

  /** The tree; comparisons refer to their property by its slot in {@link #properties}. */
  final Node root;

  /** The properties the filter reads, each once. */
  final String[] properties;

  private FilterProgram(Node root, String[] properties) {
    this.root = root;
    this.properties = properties;
  }

  /** The text of a filter that compares user properties only. */
  static String write(FilterExpression filter) {
    StringBuilder out = new StringBuilder();
    write(filter, out);
    return out.toString();
  }

  private static void write(FilterExpression filter, StringBuilder out) {
    switch (filter) {
      case And and -> {
        write(and.left(), out.append('&'));
        write(and.right(), out);
      }
      case Or or -> {
        write(or.left(), out.append('|'));
        write(or.right(), out);
      }
      case Not not -> write(not.operand(), out.append('!'));
      case Constant constant -> out.append(constant.value() ? 'T' : 'F');
      case Comparison comparison -> {
        List<TypedComparison> typed = TypedComparison.of(comparison);
        for (int i = 0; i < typed.size() - 1; i++) {
          out.append('|');
        }
        for (TypedComparison t : typed) {
          out.append('c').append(t.operator().ordinal());
          field(out, t.property());
          field(out, t.acceptedTypes().stream().map(s -> s.tag).collect(Collectors.joining()));
          out.append(StoredType.of(t.literal().type()).tag);
          field(out, StoredType.text(t.literal()));
        }
      }
      default -> throw new IllegalArgumentException("not a property filter: " + filter);
    }
  }

  private static void field(StringBuilder out, String text) {
    out.append(text.length()).append(':').append(text);
  }

  /** The program of a text {@link #write} made. */
  static FilterProgram read(String text) {
    Reader reader = new Reader(text);
    Node root = reader.node();
    if (reader.at != text.length()) {
      throw new IllegalArgumentException("trailing text in filter program at " + reader.at);
    }
    return new FilterProgram(root, reader.properties.toArray(String[]::new));
  }

  private static final class Reader {
    private final String text;
    private final List<String> properties = new ArrayList<>();
    private int at;

    Reader(String text) {
      this.text = text;
    }

    Node node() {
      char c = text.charAt(at++);
      return switch (c) {
        case '&' -> new Node.And(node(), node());
        case '|' -> new Node.Or(node(), node());
        case '!' -> new Node.Not(node());
        case 'T' -> new Node.Constant(true);
        case 'F' -> new Node.Constant(false);
        case 'c' -> {
          ComparisonOperator operator = OPERATORS[text.charAt(at++) - '0'];
          String property = field();
          int slot = properties.indexOf(property);
          if (slot < 0) {
            slot = properties.size();
            properties.add(property);
          }
          String acceptedTags = field();
          StoredType literalType = StoredType.ofTag(String.valueOf(text.charAt(at++)));
          yield new Node.Compare(
              slot, acceptedTags, operator, ComparedLiteral.of(literalType, field()));
        }
        default -> throw new IllegalArgumentException("bad filter program at " + (at - 1));
      };
    }

    private String field() {
      int colon = text.indexOf(':', at);
      int length = Integer.parseInt(text, at, colon, 10);
      at = colon + 1 + length;
      return text.substring(colon + 1, at);
    }
  }

  /** The filter's tree, evaluated on one document's values. */
  sealed interface Node {
    boolean test(DocumentValues values);

    record And(Node left, Node right) implements Node {
      @Override
      public boolean test(DocumentValues values) {
        return left.test(values) && right.test(values);
      }
    }

    record Or(Node left, Node right) implements Node {
      @Override
      public boolean test(DocumentValues values) {
        return left.test(values) || right.test(values);
      }
    }

    record Not(Node operand) implements Node {
      @Override
      public boolean test(DocumentValues values) {
        return !operand.test(values);
      }
    }

    record Constant(boolean value) implements Node {
      @Override
      public boolean test(DocumentValues values) {
        return value;
      }
    }

    /**
     * As {@link H2Functions#compare}: false when the property is missing or its type tag is not
     * accepted, else the comparison (only {@code NE} holds for unordered values).
     */
    record Compare(
        int slot, String acceptedTags, ComparisonOperator operator, ComparedLiteral literal)
        implements Node {
      @Override
      public boolean test(DocumentValues values) {
        String tag = values.tag(slot);
        if (tag == null || !acceptedTags.contains(tag)) {
          return false;
        }
        Integer c = literal.compareStored(values.text(slot), values.start(slot), values.end(slot));
        return H2Functions.holds(operator, c);
      }
    }
  }
}
