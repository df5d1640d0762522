package dev.trestle.store.internal.postgresql;

import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.falseCondition;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.val;

import dev.trestle.PropertyValue;
import dev.trestle.PropertyValue.DoubleValue;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.filter.FilterExpression.TextCase;
import dev.trestle.filter.FilterExpression.TextOperator;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.codec.UnitOrderText;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.EntityStatements;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.filter.SqlOperators;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.QueryPart;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL: properties in jsonb, compared with {@code ->}/{@code ->>} under a CASE type guard, so
 * a row holding another type never reaches the cast that would fail the whole query.
 */
final class PostgresDialect implements Dialect {
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Field<Object> PROPERTIES =
      (Field) DSL.field(DSL.name("properties"), SQLDataType.JSONB);

  /** Whether the database has the scalar store (see {@link Dialect#hasScalarStore}). */
  private final boolean scalarStore;

  PostgresDialect() {
    this(false);
  }

  private PostgresDialect(boolean scalarStore) {
    this.scalarStore = scalarStore;
  }

  @Override
  public Dialect withScalarStore() {
    return new PostgresDialect(true);
  }

  /**
   * Rewrites the WHEN lists of the feed triggers (migration V5) to the tables with a feed, so that
   * writes to every other table fire nothing, and disables them while there is no feed at all.
   * Locks the entity table first (as the trigger DDL does anyway), so that concurrent enables read
   * each other's committed feeds in turn.
   */
  @Override
  public void refreshFeedTriggers(java.sql.Connection connection) throws java.sql.SQLException {
    try (java.sql.Statement statement = connection.createStatement()) {
      statement.execute("lock table trestle_entity in share row exclusive mode");
      java.util.List<String> ids = new java.util.ArrayList<>();
      try (java.sql.ResultSet row =
          statement.executeQuery("select table_id from trestle_feed order by table_id")) {
        while (row.next()) {
          ids.add(Long.toString(row.getLong(1)));
        }
      }
      for (String[] trigger :
          new String[][] {
            {"trestle_feed_written", "insert or update", "new"},
            {"trestle_feed_deleted", "delete", "old"}
          }) {
        statement.execute(
            "create or replace trigger "
                + trigger[0]
                + " after "
                + trigger[1]
                + " on trestle_entity for each row when ("
                + (ids.isEmpty()
                    ? "false"
                    : trigger[2] + ".table_id in (" + String.join(", ", ids) + ")")
                + ") execute function trestle_feed_append()");
        statement.execute(
            "alter table trestle_entity "
                + (ids.isEmpty() ? "disable" : "enable")
                + " trigger "
                + trigger[0]);
      }
    }
  }

  @Override
  public SQLDialect sqlDialect() {
    return SQLDialect.POSTGRES;
  }

  /**
   * One statement that sets this transaction only, instead of reading, setting and restoring the
   * connection's level, which pgjdbc does with a round trip each.
   */
  @Override
  public java.util.Optional<String> snapshotStatement() {
    return java.util.Optional.of("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
  }

  @Override
  public String encodeText(String text) {
    return UnitOrderText.encode(text);
  }

  @Override
  public String decodeText(String stored) {
    return UnitOrderText.decode(stored);
  }

  @Override
  public boolean decodesAsIs(char[] stored, int offset, int length) {
    return UnitOrderText.isPlain(stored, offset, length);
  }

  /** pgjdbc hands jsonb over as text, whose bytes {@code getBytes} returns without a copy. */
  @Override
  public boolean readsDocumentsAsUtf8() {
    return true;
  }

  @Override
  public boolean decodesUtf8AsIs(byte[] stored, int offset, int length) {
    return UnitOrderText.isPlainUtf8(stored, offset, length);
  }

  @Override
  public Field<Object> propertiesColumn() {
    return PROPERTIES;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Field<Object> propertiesValue(String json) {
    return (Field) val(JSONB.valueOf(json), SQLDataType.JSONB);
  }

  @Override
  public Object propertiesBindValue(String json) {
    return JSONB.valueOf(json);
  }

  @Override
  public String propertiesParameter() {
    return "cast(? as jsonb)";
  }

  /**
   * One statement instead of a statement per entity: PostgreSQL parses, plans and executes it once
   * (a JDBC batch of 100 inserts is 100 executions); WITH ORDINALITY keeps the operations' order.
   */
  @Override
  public java.util.Optional<String> rowsOfArrays() {
    return java.util.Optional.of(
        "unnest(cast(? as text[]), cast(? as bigint[]), cast(? as text[])) with ordinality"
            + " as u(r, t, p, n)");
  }

  @Override
  public String[] arrayTypes() {
    return new String[] {"text", "int8"};
  }

  @Override
  public String returningTicks(String dml) {
    return dml + " returning ticks";
  }

  @Override
  public boolean hasScalarStore() {
    return scalarStore;
  }

  @Override
  public String upsertReplace() {
    String upsert =
        "insert into trestle_entity as e (table_id, partition_key, row_key, ticks, properties)"
            + " select id, ?, ?, ?, cast(? as jsonb) from trestle_table"
            + " where account = ? and name_key = ?"
            + " on conflict (table_id, partition_key, row_key) do update"
            + " set ticks = greatest(excluded.ticks, e.ticks + 1), properties = excluded.properties";
    return scalarStore ? EntityStatements.withScalars(upsert, true) : returningTicks(upsert);
  }

  @Override
  public String propertiesText(Object columnValue) {
    return columnValue instanceof JSONB jsonb ? jsonb.data() : columnValue.toString();
  }

  @Override
  public Table<Record> entitiesForReading(String alias) {
    return Schema.ENTITIES.as(alias);
  }

  @Override
  public Condition compareProperty(
      String property,
      Set<StoredType> acceptedTypes,
      ComparisonOperator operator,
      PropertyValue literal) {
    Field<String> name = val(property);
    QueryPart tags =
        DSL.list(acceptedTypes.stream().map(t -> inline(t.tag)).collect(Collectors.toList()));
    if (literal instanceof DoubleValue d && d.value().isNaN()) {
      // NaN is unordered and unequal to everything, itself included: only ne holds, for any double.
      return operator == ComparisonOperator.NE
          ? condition("coalesce({0} -> {1} ->> 0 in ({2}), false)", PROPERTIES, name, tags)
          : falseCondition();
    }
    // CASE keeps the cast away from rows of other types (or without the property) and yields
    // false for them.
    return condition(
        "case when {0} -> {1} ->> 0 in ({2}) then "
            + comparison("{0} -> {1} ->> 1", operator, literal)
            + " else false end",
        PROPERTIES,
        name,
        tags,
        literalValue(literal));
  }

  /**
   * The flat key holds the value's text under {@code ->>}, as {@code properties -> name ->> 1}
   * does, so the comparison is the same; its type is in the key, so no guard is needed: a missing
   * key gives NULL, made false. Each {@code ->>} is a lookup in the document, the most of a
   * condition's cost (measured: one per row costs about as much as reading the row), so each form
   * below does as few as it can:
   *
   * <ul>
   *   <li>An entity holds a name with one type only: the Int32 literal's integer keys are one
   *       {@code coalesce} of texts, and its Double key is looked up only where neither exists.
   *   <li>A marker (JSON {@code true}) reads as the text {@code true}, as the string "true" does:
   *       with {@code orMarked}, the text compared or equal to {@code true} (the string "true"
   *       passing too does no harm); without, a text that compares but reads {@code true} must also
   *       not be the marker. Where the text {@code true} itself compares (or does not), one of the
   *       two needs no second test.
   * </ul>
   */
  @Override
  public Condition compareScalar(
      Field<?> scalars,
      Set<StoredType> acceptedTypes,
      String property,
      ComparisonOperator operator,
      PropertyValue literal,
      boolean orMarked) {
    StoredType literalType = StoredType.of(literal.type());
    if (literal instanceof DoubleValue d && d.value().isNaN()) {
      return operator == ComparisonOperator.NE
          ? condition("({0} -> {1}) is not null", scalars, val(literalType.tag + property))
          : falseCondition();
    }
    if (literalType == StoredType.INT32 && acceptedTypes.contains(StoredType.DOUBLE)) {
      Field<String> integers =
          DSL.coalesce(
              scalarText(scalars, StoredType.INT32, property),
              scalarText(scalars, StoredType.INT64, property));
      PropertyValue asDouble = PropertyValue.of((double) ((Integer) literal.value()));
      return condition(
          "coalesce({0}, {1}, false)",
          compared(integers, operator, literal),
          compared(scalarText(scalars, StoredType.DOUBLE, property), operator, asDouble));
    }
    Field<String> text = scalarText(scalars, literalType, property);
    Condition compared = compared(text, operator, literal);
    if (literalType != StoredType.STRING && literalType != StoredType.BINARY) {
      return condition("coalesce({0}, false)", compared);
    }
    // Java's order agrees with collate "C" against an ASCII text: at the first difference, any
    // other character (a surrogate included) is above every ASCII one in both.
    String marker = "true";
    boolean markerCompares =
        switch (operator) {
          case EQ -> marker.equals(textOf(literal));
          case NE -> !marker.equals(textOf(literal));
          case GT -> marker.compareTo(textOf(literal)) > 0;
          case GE -> marker.compareTo(textOf(literal)) >= 0;
          case LT -> marker.compareTo(textOf(literal)) < 0;
          case LE -> marker.compareTo(textOf(literal)) <= 0;
        };
    if (orMarked == markerCompares) {
      return condition("coalesce({0}, false)", compared);
    }
    if (orMarked) {
      return operator == ComparisonOperator.EQ
          ? condition(
              "coalesce(({0}) collate \"C\" in ({1}, 'true'), false)", text, val(textOf(literal)))
          : condition("coalesce({0} or {1} = 'true', false)", compared, text);
    }
    return condition(
        "coalesce({0} and ({1} <> 'true' or {2} -> {3} <> cast('true' as jsonb)), false)",
        compared, text, scalars, val(literalType.tag + property));
  }

  /** The text of a scalar document's key for the property's values of one type; NULL: none. */
  private static Field<String> scalarText(Field<?> scalars, StoredType type, String property) {
    return DSL.field("{0} ->> {1}", SQLDataType.VARCHAR, scalars, val(type.tag + property));
  }

  /** {@link #comparison} of a text with the literal: NULL where the text is NULL. */
  private Condition compared(
      Field<String> text, ComparisonOperator operator, PropertyValue literal) {
    return condition(
        comparison("{0}", operator, literal), text, inline(""), inline(""), literalValue(literal));
  }

  /**
   * The comparison of a stored value's text ({@code value}, a template over the arguments {0} to
   * {2}) with the literal ({3}) by the literal's type: the one home of the casts, the ordinal
   * collation and the NaN rules, for the entity's properties and the scalar store alike.
   */
  private static String comparison(
      String value, ComparisonOperator operator, PropertyValue literal) {
    String sqlOperator = SqlOperators.of(operator);
    return switch (StoredType.of(literal.type())) {
      case STRING, GUID, BINARY -> "(" + value + ") collate \"C\" " + sqlOperator + " {3}";
      case INT32, INT64, DATE_TIME -> "cast(" + value + " as bigint) " + sqlOperator + " {3}";
      case BOOLEAN -> "cast(" + value + " as boolean) " + sqlOperator + " {3}";
      // PostgreSQL orders NaN above all numbers and equal to itself; the service's doubles are
      // IEEE: a stored NaN satisfies ne only.
      case DOUBLE ->
          operator == ComparisonOperator.NE
              ? "(" + value + " = 'NaN' or cast(" + value + " as float8) <> {3})"
              : "("
                  + value
                  + " <> 'NaN' and cast("
                  + value
                  + " as float8) "
                  + sqlOperator
                  + " {3})";
    };
  }

  /** The literal as the bind value {@link #comparison} compares with. */
  private Field<?> literalValue(PropertyValue literal) {
    return switch (StoredType.of(literal.type())) {
      case STRING, GUID, BINARY -> val(textOf(literal));
      case INT32, INT64, DATE_TIME -> val(Long.parseLong(StoredType.text(literal)));
      case BOOLEAN -> val((Boolean) literal.value());
      case DOUBLE -> val((Double) literal.value());
    };
  }

  private String textOf(PropertyValue literal) {
    String text = StoredType.text(literal);
    return literal.type() == dev.trestle.EdmType.STRING ? encodeText(text) : text;
  }

  @Override
  public Field<String> stringProperty(String property) {
    return DSL.field(
        "case when {0} -> {1} ->> 0 = {2} then {0} -> {1} ->> 1 end",
        SQLDataType.VARCHAR, PROPERTIES, val(property), inline(StoredType.STRING.tag));
  }

  @Override
  public Field<String> ordinal(Field<String> stored) {
    return DSL.field("{0} collate \"C\"", SQLDataType.VARCHAR, stored);
  }

  /**
   * A stored U+0000, U+0001 (escaped as two code points) or U+0002 makes a plain substring search
   * unsafe: a literal with such units could match from the middle of an escape. Those rare literals
   * go through a regular expression that matches whole units from the start of the text.
   */
  @Override
  public Condition textTest(Field<String> stored, TextOperator operator, String literal) {
    boolean unaligned =
        (operator == TextOperator.CONTAINS || operator == TextOperator.ENDS_WITH)
            && literal.chars().anyMatch(c -> c == 1 || c == 2);
    if (!unaligned) {
      return Dialect.super.textTest(stored, operator, literal);
    }
    StringBuilder pattern =
        new StringBuilder("^(?:\\U00000001[\\U00000001\\U00000002]|[^\\U00000001])*");
    pattern.append(operator == TextOperator.CONTAINS ? "?" : "");
    literal.codePoints().forEach(c -> pattern.append(String.format("\\U%08X", c)));
    pattern.append(operator == TextOperator.ENDS_WITH ? "$" : "");
    return condition("{0} ~ {1}", stored, val(pattern.toString()));
  }

  /**
   * Under {@code COLLATE "C"} lower() and upper() map the ASCII letters only, whatever the ctype.
   */
  @Override
  public Field<String> asciiCase(Field<String> ascii, TextCase textCase) {
    return switch (textCase) {
      case AS_IS -> ascii;
      case LOWER -> DSL.field("lower({0} collate \"C\")", SQLDataType.VARCHAR, ascii);
      case UPPER -> DSL.field("upper({0} collate \"C\")", SQLDataType.VARCHAR, ascii);
    };
  }

  /** FOR SHARE: an entity insert's foreign-key check (FOR KEY SHARE) does not wait for it. */
  @Override
  public <R extends Record> ResultQuery<R> lockedAgainstUpdates(SelectForUpdateStep<R> select) {
    return select.forShare();
  }
}
