package dev.trestle.store.internal.postgresql;

import dev.trestle.store.internal.database.ScanStatements;
import dev.trestle.store.internal.database.Store;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Query;

/**
 * Statements that jOOQ renders once per shape and that run through JDBC with their values bound, as
 * jOOQ's manual advises for hot paths: a query page's statements cost a third of an indexed
 * lookup's CPU when rendered every time. The caller names the shape and gives the values in the
 * statement's order; the first statement of a shape checks that jOOQ binds the very same values,
 * and a shape whose it does not is rendered per query.
 */
final class RenderedOnce {
  private RenderedOnce() {}

  /**
   * A condition as jOOQ renders it alone, its values as bind markers, and those values: the text
   * shows every choice a value makes in the SQL, so it names the condition's part of a shape.
   */
  record Rendered(String text, List<Object> binds) {
    static Rendered of(DSLContext sql, Condition condition) {
      return new Rendered(sql.render(condition), sql.extractBindValues(condition));
    }
  }

  /**
   * The text of the shape's statement, rendered from {@code statement} the first time; null when it
   * is to be rendered per query (a value of a type not bound here, or a shape whose statement jOOQ
   * binds otherwise than {@code binds}).
   */
  static String text(
      Store store,
      DSLContext sql,
      String shape,
      List<Object> binds,
      Supplier<? extends Query> statement) {
    if (!binds.stream().allMatch(RenderedOnce::bindable)) {
      return null;
    }
    String text =
        store.scanStatements.text(
            shape,
            () -> {
              Query query = statement.get();
              return query.getBindValues().equals(binds)
                  ? sql.render(query)
                  : ScanStatements.PER_QUERY;
            });
    return text.equals(ScanStatements.PER_QUERY) ? null : text;
  }

  /** The text prepared on the connection, its values bound in order as jOOQ binds their types. */
  static PreparedStatement prepared(Connection connection, String text, List<Object> binds)
      throws SQLException {
    PreparedStatement statement = connection.prepareStatement(text);
    try {
      for (int i = 0; i < binds.size(); i++) {
        switch (binds.get(i)) {
          case String value -> statement.setString(i + 1, value);
          case Long value -> statement.setLong(i + 1, value);
          case Integer value -> statement.setInt(i + 1, value);
          case Double value -> statement.setDouble(i + 1, value);
          case Boolean value -> statement.setBoolean(i + 1, value);
          case BigDecimal value -> statement.setBigDecimal(i + 1, value);
          default -> throw new IllegalStateException("bind " + binds.get(i));
        }
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  private static boolean bindable(Object value) {
    return value instanceof String
        || value instanceof Long
        || value instanceof Integer
        || value instanceof Double
        || value instanceof Boolean
        || value instanceof BigDecimal;
  }
}
