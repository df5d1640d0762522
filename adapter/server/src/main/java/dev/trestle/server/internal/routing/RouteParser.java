package dev.trestle.server.internal.routing;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * Parses the resource part of a path (everything after {@code /{account}/}, already
 * percent-decoded) into a {@link Route}. Key literals are OData strings: single-quoted, with {@code
 * ''} for a quote inside.
 */
final class RouteParser {
  private final String text;
  private int pos;

  private RouteParser(String text) {
    this.text = text;
  }

  /** The extension segment of {@link Route.EntityCount}, in OData's URL conventions. */
  private static final String COUNT = "/$count";

  /** The extension segment of {@link Route.ChangeFeed}. */
  private static final String CHANGES = "/$changes";

  static Route parse(String resource) {
    // Tools that build URLs by joining segments send a trailing slash (POST .../Tables/,
    // .../$batch/).
    String trimmed =
        resource.endsWith("/") ? resource.substring(0, resource.length() - 1) : resource;
    if (trimmed.endsWith(COUNT)) {
      return count(
          new RouteParser(trimmed.substring(0, trimmed.length() - COUNT.length())).route());
    }
    if (trimmed.endsWith(CHANGES)) {
      Route of = new RouteParser(trimmed.substring(0, trimmed.length() - CHANGES.length())).route();
      if (of instanceof Route.EntitySet set) {
        return new Route.ChangeFeed(set.tableName());
      }
      throw syntaxError();
    }
    return new RouteParser(trimmed).route();
  }

  private static Route count(Route counted) {
    return switch (counted) {
      case Route.EntitySet set -> new Route.EntityCount(set.tableName(), null, null);
      case Route.EntityResource entity ->
          new Route.EntityCount(entity.tableName(), entity.partitionKey(), entity.rowKey());
      default -> throw syntaxError();
    };
  }

  private Route route() {
    if (text.isEmpty()) {
      return new Route.ServiceRoot();
    }
    if (text.equals("$batch")) {
      return new Route.Batch();
    }
    int paren = text.indexOf('(');
    String name = paren < 0 ? text : text.substring(0, paren);
    if (name.isEmpty() || name.indexOf('/') >= 0 || name.indexOf('\'') >= 0) {
      throw syntaxError();
    }
    boolean tables = name.equalsIgnoreCase("Tables");
    if (paren < 0) {
      return tables ? new Route.TableCollection() : new Route.EntitySet(name);
    }
    pos = paren + 1;
    skipSpaces();
    if (peek() == ')') {
      pos++;
      expectEnd();
      return tables ? new Route.TableCollection() : new Route.EntitySet(name);
    }
    if (tables) {
      String table = stringLiteral();
      if (peek() == ',') {
        throw syntaxError();
      }
      closeParen();
      return new Route.TableResource(table);
    }
    String partitionKey = null;
    String rowKey = null;
    for (int i = 0; i < 2; i++) {
      if (i > 0) {
        expect(',');
      }
      String key = identifier();
      skipSpaces();
      expect('=');
      skipSpaces();
      String value = stringLiteral();
      if (key.equals("PartitionKey") && partitionKey == null) {
        partitionKey = value;
      } else if (key.equals("RowKey") && rowKey == null) {
        rowKey = value;
      } else {
        throw syntaxError();
      }
    }
    closeParen();
    if (containsSlash(partitionKey) || containsSlash(rowKey)) {
      // the Azure front end cannot route keys with path separators; it answers as for a syntax
      // error
      throw syntaxError();
    }
    return new Route.EntityResource(name, partitionKey, rowKey);
  }

  private static boolean containsSlash(String key) {
    return key.indexOf('/') >= 0 || key.indexOf('\\') >= 0;
  }

  private String identifier() {
    skipSpaces();
    int start = pos;
    while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
      pos++;
    }
    if (start == pos) {
      throw syntaxError();
    }
    return text.substring(start, pos);
  }

  private String stringLiteral() {
    skipSpaces();
    expect('\'');
    StringBuilder value = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw syntaxError();
      }
      char c = text.charAt(pos++);
      if (c == '\'') {
        if (pos < text.length() && text.charAt(pos) == '\'') {
          value.append('\'');
          pos++;
        } else {
          skipSpaces();
          return value.toString();
        }
      } else {
        value.append(c);
      }
    }
  }

  private void closeParen() {
    skipSpaces();
    expect(')');
    expectEnd();
  }

  private void expectEnd() {
    if (pos != text.length()) {
      throw syntaxError();
    }
  }

  private void expect(char c) {
    if (peek() != c) {
      throw syntaxError();
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpaces() {
    while (pos < text.length() && text.charAt(pos) == ' ') {
      pos++;
    }
  }

  static TableException syntaxError() {
    return new TableException(TableErrorCode.INVALID_INPUT, "Bad Request - Error in query syntax.");
  }
}
