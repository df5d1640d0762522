package dev.trestle.store.internal.postgresql;

import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.val;

import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.BinaryValue;
import dev.trestle.PropertyValue.BooleanValue;
import dev.trestle.PropertyValue.DateTimeValue;
import dev.trestle.PropertyValue.DoubleValue;
import dev.trestle.PropertyValue.GuidValue;
import dev.trestle.PropertyValue.Int32Value;
import dev.trestle.PropertyValue.Int64Value;
import dev.trestle.PropertyValue.StringValue;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.DeclaredIndex;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.IndexBuilder;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.ValueKind;
import dev.trestle.store.internal.filter.SqlOperators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * PostgreSQL's declared property indexes: one partial B-tree index per declaration, over the rows
 * of its table only, keyed by the property's typed value and then the entity key, so that an
 * equality reads its matches in key order. The indexed value is an expression of the stored
 * properties that is NULL for other types (and left out of the index); queries name the same
 * expression, which is how the planner finds the index. Strings and binaries are indexed by their
 * first {@value #PREFIX} characters, which keeps every entry within a B-tree page and still orders
 * them.
 */
final class PostgresIndexBuilder implements IndexBuilder {
  /** Characters of a string or binary (hex) value in the index: at most 1 KB of UTF-8. */
  static final int PREFIX = 256;

  private final Dialect dialect;

  PostgresIndexBuilder(Dialect dialect) {
    this.dialect = dialect;
  }

  @Override
  public boolean builds() {
    return true;
  }

  /**
   * The indexed value of a property, the one home of the expression that the index is built on and
   * that queries compare: the property's name is inline (part of the expression), values are bound.
   */
  Field<Object> indexedValue(String property, ValueKind kind) {
    Field<Object> properties = dialect.propertiesColumn();
    Field<String> name = inline(property);
    String tag = "{0} -> {1} ->> 0";
    String text = "{0} -> {1} ->> 1";
    String template =
        switch (kind) {
          case NUMBER ->
              "(case when " + tag + " in ('i', 'l', 'd') then cast(" + text + " as numeric) end)";
          case DATE_TIME -> "(case when " + tag + " = 't' then cast(" + text + " as bigint) end)";
          case BOOLEAN -> "(case when " + tag + " = 'b' then cast(" + text + " as boolean) end)";
          case STRING -> prefixed(tag, text, "s");
          case BINARY -> prefixed(tag, text, "x");
          case GUID -> "((case when " + tag + " = 'g' then " + text + " end) collate \"C\")";
          case TIMESTAMP -> "{2}";
        };
    return DSL.field(template, Object.class, properties, name, Schema.TICKS);
  }

  private static String prefixed(String tag, String text, String storedTag) {
    return "((case when "
        + tag
        + " = '"
        + storedTag
        + "' then left("
        + text
        + ", "
        + PREFIX
        + ") end) collate \"C\")";
  }

  /**
   * The index's definition, with every value inline (DDL takes no bind values): each property's
   * value in order, then the key; over the rows that hold the first property's value (further
   * properties may be missing: their value is then NULL in the index).
   */
  String definition(DSLContext sql, DeclaredIndex index) {
    StringBuilder columns = new StringBuilder();
    for (DeclaredIndex.Column column : index.columns()) {
      columns
          .append(sql.renderInlined(indexedValue(column.property(), column.kind())))
          .append(", ");
    }
    String rows = "table_id = " + index.tableId();
    if (index.kind() != ValueKind.TIMESTAMP) {
      rows +=
          " and "
              + sql.renderInlined(indexedValue(index.property(), index.kind()))
              + " is not null";
    }
    return "on trestle_entity (" + columns + "partition_key, row_key) where " + rows;
  }

  @Override
  public void build(Store store, DeclaredIndex index) {
    store.unhurried(
        sql -> {
          String name = index.indexName();
          // Several servers may declare the same index at once (serve --index): one builds, the
          // others wait for its build instead of dropping it as an interrupted one.
          while (true) {
            Boolean valid = validity(sql, name);
            if (Boolean.TRUE.equals(valid)) {
              break;
            }
            if (valid != null) {
              if (beingBuilt(sql, name)) {
                pause();
                continue;
              }
              // An interrupted concurrent build leaves an invalid index behind, which writes still
              // keep up.
              sql.execute("drop index concurrently if exists " + name);
            }
            sql.execute(
                "create index concurrently if not exists " + name + " " + definition(sql, index));
          }
          statistics(sql, index);
          return null;
        });
  }

  /** Whether another session is building the index right now. */
  private static boolean beingBuilt(DSLContext sql, String indexName) {
    return sql.fetchExists(
        DSL.selectOne()
            .from(DSL.table("pg_stat_progress_create_index"))
            .where(DSL.condition("index_relid = to_regclass({0})", val(indexName))));
  }

  private static void pause() {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while another session builds the index", e);
    }
  }

  /**
   * Statistics of the indexed value, gathered by ANALYZE (now, and whenever autovacuum analyzes the
   * table): PostgreSQL keeps none for the expressions of a partial index, and without them it
   * cannot tell a selective comparison from one that holds for most rows. They cost no write.
   */
  private void statistics(DSLContext sql, DeclaredIndex index) {
    List<String> values = new ArrayList<>();
    for (DeclaredIndex.Column column : index.columns()) {
      // the write time is a column, which has statistics of its own; alone it needs none
      if (column.kind() != ValueKind.TIMESTAMP || index.columns().size() > 1) {
        values.add(sql.renderInlined(indexedValue(column.property(), column.kind())));
      }
    }
    if (!values.isEmpty()) {
      sql.execute(
          "create statistics if not exists "
              + statisticsName(index.indexName())
              + " on "
              + String.join(", ", values)
              + " from trestle_entity");
    }
    sql.execute("analyze trestle_entity");
  }

  private static String statisticsName(String indexName) {
    return indexName + "_s";
  }

  @Override
  public void drop(Store store, String indexName) {
    store.unhurried(
        sql -> {
          sql.execute("drop index concurrently if exists " + indexName);
          sql.execute("drop statistics if exists " + statisticsName(indexName));
          return null;
        });
  }

  @Override
  public boolean isBuilt(DSLContext sql, String indexName) {
    return Boolean.TRUE.equals(validity(sql, indexName));
  }

  /** Whether the index is valid; null when it does not exist (in the connection's schema). */
  private static Boolean validity(DSLContext sql, String indexName) {
    return sql.resultQuery(
            "select i.indisvalid from pg_index i where i.indexrelid = to_regclass({0})",
            val(indexName))
        .fetchOptional(0, Boolean.class)
        .orElse(null);
  }

  @Override
  public OptionalLong size(DSLContext sql, String indexName) {
    Long bytes =
        sql.resultQuery("select pg_relation_size(to_regclass({0}))", val(indexName))
            .fetchOne(0, Long.class);
    return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes);
  }

  @Override
  public Condition candidates(
      DeclaredIndex.Column column, ComparisonOperator operator, PropertyValue literal) {
    Field<Object> value = indexedValue(column.property(), column.kind());
    return switch (column.kind()) {
      case TIMESTAMP ->
          literal instanceof DateTimeValue d ? ordered(value, operator, Ticks.of(d.value())) : null;
      case NUMBER -> {
        BigDecimal number = number(literal);
        yield number == null ? null : ordered(value, operator, number);
      }
      case DATE_TIME ->
          literal instanceof DateTimeValue d ? ordered(value, operator, Ticks.of(d.value())) : null;
      case BOOLEAN ->
          literal instanceof BooleanValue b
              ? operator == ComparisonOperator.NE
                  ? compare(value, ComparisonOperator.EQ, !b.value())
                  : compare(value, operator, b.value())
              : null;
      case GUID ->
          literal instanceof GuidValue ? ordered(value, operator, StoredType.text(literal)) : null;
      case STRING ->
          literal instanceof StringValue s
              ? prefixed(value, operator, dialect.encodeText(s.value()))
              : null;
      case BINARY ->
          literal instanceof BinaryValue
              ? prefixed(value, operator, StoredType.text(literal))
              : null;
    };
  }

  /**
   * The literal as the number the index holds for it, exactly: integers as they are, a double as
   * its shortest decimal text (the stored text), whose order is the doubles' order; none for NaN
   * and infinities.
   */
  private static BigDecimal number(PropertyValue literal) {
    return switch (literal) {
      case Int32Value i -> BigDecimal.valueOf(i.value());
      case Int64Value l -> BigDecimal.valueOf(l.value());
      case DoubleValue d ->
          Double.isFinite(d.value()) ? new BigDecimal(Double.toString(d.value())) : null;
      default -> null;
    };
  }

  /**
   * A comparison with a value of a totally ordered index: itself, and {@code ne} as the two ranges
   * around the value.
   */
  private static Condition ordered(Field<Object> value, ComparisonOperator operator, Object bound) {
    if (operator == ComparisonOperator.NE) {
      return compare(value, ComparisonOperator.LT, bound)
          .or(compare(value, ComparisonOperator.GT, bound));
    }
    return compare(value, operator, bound);
  }

  /**
   * A comparison through the first {@link #PREFIX} characters: where a value compares so with the
   * literal, its prefix compares at least as loosely with the literal's prefix.
   */
  private static Condition prefixed(Field<Object> value, ComparisonOperator operator, String text) {
    String prefix = prefix(text);
    boolean whole = prefix.length() == text.length();
    return switch (operator) {
      case EQ -> compare(value, ComparisonOperator.EQ, prefix);
      case GT, GE -> compare(value, ComparisonOperator.GE, prefix);
      case LT, LE -> compare(value, ComparisonOperator.LE, prefix);
      // a value unequal to a short literal has another prefix; a long one may share it
      case NE -> whole ? ordered(value, operator, prefix) : null;
    };
  }

  /** The first {@link #PREFIX} characters (code points, as PostgreSQL counts them). */
  static String prefix(String text) {
    if (text.length() <= PREFIX) {
      return text;
    }
    int end = text.offsetByCodePoints(0, Math.min(PREFIX, text.codePointCount(0, text.length())));
    return text.substring(0, end);
  }

  private static Condition compare(Field<Object> value, ComparisonOperator operator, Object bound) {
    return condition("{0} " + SqlOperators.of(operator) + " {1}", value, val(bound));
  }
}
