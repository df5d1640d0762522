package dev.trestle.filter.internal;

import dev.trestle.PropertyValue;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.model.TableLimits;
import java.util.Set;

/**
 * Recursive-descent parser of the {@code $filter} language. Precedence, loosest first: {@code or},
 * {@code and}, {@code not}, then one comparison or a parenthesised group; {@code and} and {@code
 * or} associate to the left. Keywords are lower case, as the service's language is case-sensitive
 * (the boolean literals excepted).
 *
 * <pre>
 * filter     = orExpr END
 * orExpr     = andExpr *( "or" andExpr )
 * andExpr    = unary *( "and" unary )
 * unary      = "not" unary | "(" orExpr ")" | comparison
 * comparison = property op literal | literal op property | property | boolean
 *            ; a bare property means "eq true"; a bare true or false is a constant
 * </pre>
 */
public final class ExpressionParser {
  // Deep enough for any real filter (15 comparisons), shallow enough never to exhaust the stack.
  private static final int MAX_NESTING = 100;
  private static final Set<String> RESERVED =
      Set.of("and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le");

  private final String filter;
  private final FilterLexer lexer;
  private final boolean extended;
  private Token current;
  private int comparisons;
  private int nesting;

  private ExpressionParser(String filter, boolean extended) {
    this.filter = filter;
    this.extended = extended;
    this.lexer = new FilterLexer(filter, extended);
    this.current = lexer.next();
  }

  /** See {@link dev.trestle.filter.FilterParser#parse(String)}. */
  public static FilterExpression parse(String filter) {
    return parse(filter, false);
  }

  /**
   * See {@link dev.trestle.filter.FilterParser#parseExtended(String)}: with {@code extended}, also
   * Trestle's string functions.
   */
  public static FilterExpression parse(String filter, boolean extended) {
    ExpressionParser parser = new ExpressionParser(filter, extended);
    FilterExpression expression = parser.orExpression();
    if (parser.current.kind() != TokenKind.END) {
      throw parser.error(
          parser.current,
          "expected 'and', 'or' or the end of the filter, found " + describe(parser.current));
    }
    return expression;
  }

  private FilterExpression orExpression() {
    FilterExpression left = andExpression();
    while (current.isWord("or")) {
      advance();
      left = new FilterExpression.Or(left, andExpression());
    }
    return left;
  }

  private FilterExpression andExpression() {
    FilterExpression left = unary();
    while (current.isWord("and")) {
      advance();
      left = new FilterExpression.And(left, unary());
    }
    return left;
  }

  private FilterExpression unary() {
    if (current.isWord("not")) {
      Token not = current;
      advance();
      enter(not);
      FilterExpression operand = unary();
      nesting--;
      return new FilterExpression.Not(operand);
    }
    if (current.kind() == TokenKind.OPEN_PAREN) {
      Token open = current;
      advance();
      enter(open);
      FilterExpression inner = orExpression();
      if (current.kind() != TokenKind.CLOSE_PAREN) {
        throw error(
            current,
            "expected ')' to close the '(' at position "
                + open.position()
                + ", found "
                + describe(current));
      }
      advance();
      nesting--;
      return inner;
    }
    return comparison();
  }

  private FilterExpression comparison() {
    Token left = operand();
    if (extended && current.kind() == TokenKind.OPEN_PAREN && left.kind() == TokenKind.IDENTIFIER) {
      return function(left);
    }
    ComparisonOperator operator = operator(current);
    if (operator == null) {
      if (left.kind() == TokenKind.IDENTIFIER) {
        return count(
            left,
            new FilterExpression.Comparison(
                left.text(), ComparisonOperator.EQ, PropertyValue.of(true)));
      }
      if (left.literal() instanceof PropertyValue.BooleanValue constant) {
        return new FilterExpression.Constant(constant.value());
      }
      throw error(
          current,
          "expected a comparison operator (eq, ne, gt, ge, lt, le), found " + describe(current));
    }
    advance();
    Token right = operand();
    if (extended
        && left.kind() == TokenKind.LITERAL
        && right.kind() == TokenKind.IDENTIFIER
        && current.kind() == TokenKind.OPEN_PAREN) {
      return count(left, casedComparison(right, mirror(operator), left));
    }
    if (left.kind() == TokenKind.IDENTIFIER && right.kind() == TokenKind.LITERAL) {
      return count(left, new FilterExpression.Comparison(left.text(), operator, right.literal()));
    }
    if (left.kind() == TokenKind.LITERAL && right.kind() == TokenKind.IDENTIFIER) {
      return count(
          left, new FilterExpression.Comparison(right.text(), mirror(operator), left.literal()));
    }
    if (left.kind() == TokenKind.IDENTIFIER) {
      throw error(
          right,
          "a property can only be compared with a literal, not with property '"
              + right.text()
              + "'");
    }
    throw error(left, "a comparison needs a property name on one side");
  }

  /**
   * A call of Trestle's extended syntax: {@code startswith}, {@code endswith}, {@code contains}
   * (property first, literal second), {@code substringof} (literal first, as OData v3), or {@code
   * tolower(P)}/{@code toupper(P)} compared with a string literal. The property argument of the
   * first four may itself be {@code tolower(P)} or {@code toupper(P)}.
   */
  private FilterExpression function(Token name) {
    return switch (name.text()) {
      case "startswith", "endswith", "contains" -> {
        advance();
        CasedProperty property = casedProperty(name.text());
        expect(TokenKind.COMMA, "',' after the first argument of " + name.text());
        String text = stringLiteral(name.text() + " takes a string literal second");
        expect(TokenKind.CLOSE_PAREN, "')' to close " + name.text());
        yield count(name, textTest(name.text(), property, text));
      }
      case "substringof" -> {
        advance();
        String text = stringLiteral("substringof takes a string literal first");
        expect(TokenKind.COMMA, "',' after the first argument of substringof");
        CasedProperty property = casedProperty("substringof");
        expect(TokenKind.CLOSE_PAREN, "')' to close substringof");
        yield count(name, textTest("contains", property, text));
      }
      case "tolower", "toupper" -> {
        CasedProperty property = casedCall(name);
        ComparisonOperator operator = operator(current);
        if (operator == null) {
          throw error(
              current,
              name.text()
                  + "(...) must be compared (eq, ne, gt, ge, lt, le) with a string literal, found "
                  + describe(current));
        }
        advance();
        String text = stringLiteral(name.text() + "(...) compares with a string literal only");
        yield count(name, cased(property, operator, text));
      }
      default ->
          throw error(
              name,
              "unknown function '"
                  + name.text()
                  + "' (Trestle's extensions know startswith, endswith, contains, substringof,"
                  + " tolower and toupper)");
    };
  }

  /** {@code literal op tolower(P)}, with the operator already mirrored. */
  private FilterExpression casedComparison(
      Token function, ComparisonOperator operator, Token literal) {
    if (!function.isWord("tolower") && !function.isWord("toupper")) {
      throw error(function, "only tolower(...) or toupper(...) compares with a literal here");
    }
    if (!(literal.literal() instanceof PropertyValue.StringValue text)) {
      throw error(literal, function.text() + "(...) compares with a string literal only");
    }
    return cased(casedCall(function), operator, text.value());
  }

  private record CasedProperty(String name, FilterExpression.TextCase textCase) {}

  /** A property, or {@code tolower(P)}/{@code toupper(P)}, as a function's argument. */
  private CasedProperty casedProperty(String function) {
    Token token = current;
    if (token.kind() != TokenKind.IDENTIFIER || RESERVED.contains(token.text())) {
      throw error(token, function + " takes a property name, found " + describe(token));
    }
    advance();
    if (current.kind() == TokenKind.OPEN_PAREN) {
      return casedCall(token);
    }
    return new CasedProperty(token.text(), FilterExpression.TextCase.AS_IS);
  }

  /** {@code tolower(P)} or {@code toupper(P)}, the current token being the '('. */
  private CasedProperty casedCall(Token function) {
    FilterExpression.TextCase textCase =
        switch (function.text()) {
          case "tolower" -> FilterExpression.TextCase.LOWER;
          case "toupper" -> FilterExpression.TextCase.UPPER;
          default ->
              throw error(function, "expected tolower or toupper, found " + describe(function));
        };
    expect(TokenKind.OPEN_PAREN, "'(' after " + function.text());
    Token property = current;
    if (property.kind() != TokenKind.IDENTIFIER || RESERVED.contains(property.text())) {
      throw error(
          property, function.text() + " takes a property name, found " + describe(property));
    }
    advance();
    expect(TokenKind.CLOSE_PAREN, "')' to close " + function.text());
    return new CasedProperty(property.text(), textCase);
  }

  private static FilterExpression cased(
      CasedProperty property, ComparisonOperator operator, String text) {
    return new FilterExpression.TextComparison(
        property.name(),
        property.textCase(),
        FilterExpression.TextOperator.valueOf(operator.name()),
        text);
  }

  /**
   * A plain {@code startswith} stays the key-range form (see {@link #prefixRange}); the others, and
   * a case-mapped prefix, are text tests.
   */
  private static FilterExpression textTest(String function, CasedProperty property, String text) {
    FilterExpression.TextOperator operator =
        switch (function) {
          case "startswith" -> FilterExpression.TextOperator.STARTS_WITH;
          case "endswith" -> FilterExpression.TextOperator.ENDS_WITH;
          default -> FilterExpression.TextOperator.CONTAINS;
        };
    if (operator == FilterExpression.TextOperator.STARTS_WITH
        && property.textCase() == FilterExpression.TextCase.AS_IS) {
      return prefixRange(property.name(), text);
    }
    return new FilterExpression.TextComparison(
        property.name(), property.textCase(), operator, text);
  }

  private String stringLiteral(String expectation) {
    Token token = current;
    if (!(token.literal() instanceof PropertyValue.StringValue text)) {
      throw error(token, expectation + ", found " + describe(token));
    }
    advance();
    return text.value();
  }

  private void expect(TokenKind kind, String expectation) {
    if (current.kind() != kind) {
      throw error(current, "expected " + expectation + ", found " + describe(current));
    }
    advance();
  }

  /**
   * {@code startswith(Property, 'prefix')}: the property is a string with that prefix, as the range
   * {@code Property ge 'prefix' and Property lt successor}, which compares UTF-16 code units as
   * every string comparison does and reads through the key index (or a declared index) like any
   * range.
   */
  private static FilterExpression prefixRange(String property, String prefix) {
    FilterExpression from =
        new FilterExpression.Comparison(property, ComparisonOperator.GE, PropertyValue.of(prefix));
    String successor = StringPrefix.successor(prefix);
    return successor == null
        ? from
        : new FilterExpression.And(
            from,
            new FilterExpression.Comparison(
                property, ComparisonOperator.LT, PropertyValue.of(successor)));
  }

  private Token operand() {
    Token token = current;
    boolean isOperand =
        token.kind() == TokenKind.LITERAL
            || (token.kind() == TokenKind.IDENTIFIER && !RESERVED.contains(token.text()));
    if (!isOperand) {
      throw error(token, "expected a property name or a literal, found " + describe(token));
    }
    advance();
    return token;
  }

  private FilterExpression count(Token at, FilterExpression comparison) {
    if (++comparisons > TableLimits.MAX_FILTER_COMPARISONS) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "The filter has more than "
              + TableLimits.MAX_FILTER_COMPARISONS
              + " discrete comparisons (the one at position "
              + at.position()
              + " is number "
              + comparisons
              + "); the service allows at most "
              + TableLimits.MAX_FILTER_COMPARISONS
              + ".");
    }
    return comparison;
  }

  private void enter(Token at) {
    if (++nesting > MAX_NESTING) {
      throw error(at, "the filter is nested more than " + MAX_NESTING + " levels deep");
    }
  }

  private void advance() {
    current = lexer.next();
  }

  private static ComparisonOperator operator(Token token) {
    if (token.kind() != TokenKind.IDENTIFIER) {
      return null;
    }
    return switch (token.text()) {
      case "eq" -> ComparisonOperator.EQ;
      case "ne" -> ComparisonOperator.NE;
      case "gt" -> ComparisonOperator.GT;
      case "ge" -> ComparisonOperator.GE;
      case "lt" -> ComparisonOperator.LT;
      case "le" -> ComparisonOperator.LE;
      default -> null;
    };
  }

  /**
   * The operator that keeps the meaning when the operands swap sides: {@code 5 lt X} is {@code X gt
   * 5}.
   */
  static ComparisonOperator mirror(ComparisonOperator operator) {
    return switch (operator) {
      case EQ, NE -> operator;
      case GT -> ComparisonOperator.LT;
      case GE -> ComparisonOperator.LE;
      case LT -> ComparisonOperator.GT;
      case LE -> ComparisonOperator.GE;
    };
  }

  private static String describe(Token token) {
    return token.kind() == TokenKind.END ? "the end of the filter" : "'" + token.text() + "'";
  }

  private TableException error(Token at, String detail) {
    return SyntaxErrors.at(filter, at.position(), detail);
  }
}
