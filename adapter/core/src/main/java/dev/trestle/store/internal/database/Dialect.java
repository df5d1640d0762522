package dev.trestle.store.internal.database;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.filter.FilterExpression.TextCase;
import dev.trestle.filter.FilterExpression.TextOperator;
import dev.trestle.store.internal.codec.StoredType;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * What differs between databases, kept in one narrow interface: how text is stored so that it sorts
 * in UTF-16 order, the type of the properties column, and how a typed property comparison runs in
 * SQL. Everything else (keys, paging, transactions) is the same SQL on every database.
 */
public interface Dialect {

  SQLDialect sqlDialect();

  /**
   * A statement that makes the current transaction a read-only REPEATABLE READ snapshot; empty when
   * the isolation is set through JDBC instead.
   */
  default java.util.Optional<String> snapshotStatement() {
    return java.util.Optional.empty();
  }

  /** Settings the database needs for Trestle's guarantees, applied once when a store opens. */
  default void prepareDatabase(org.jooq.DSLContext sql) {}

  /**
   * Brings the database's change feed triggers up to date with trestle_feed, in the transaction
   * that just enabled or disabled a feed. Nothing where the triggers look the feed up themselves.
   */
  default void refreshFeedTriggers(java.sql.Connection connection) throws java.sql.SQLException {}

  /**
   * After a table's catalog row was deleted and committed (on a connection in auto-commit): removes
   * entities that inserts in flight added after the cascade. Nothing where an insert's foreign-key
   * check locks the catalog row, so that the delete waits for it (PostgreSQL).
   */
  default void removeDeletedTableStragglers(java.sql.Connection connection, long tableId)
      throws java.sql.SQLException {}

  /**
   * Deletes entities of a table already taken out of its account, before its catalog row goes (on a
   * connection in auto-commit). Nothing where the catalog row's cascading delete removes them
   * without holding up writers of other tables (PostgreSQL, where a distributed database also runs
   * that cascade on every shard).
   */
  default void deleteEntitiesOf(java.sql.Connection connection, long tableId)
      throws java.sql.SQLException {}

  /**
   * Text as stored in key columns and string properties; its database order is UTF-16 code-unit
   * order.
   */
  String encodeText(String text);

  String decodeText(String stored);

  /**
   * Whether {@link #decodeText} gives these stored characters back unchanged, so that a response
   * can copy them as they are; false (always safe) sends them through {@link #decodeText}.
   */
  default boolean decodesAsIs(char[] stored, int offset, int length) {
    return false;
  }

  /**
   * Whether a pipelined bulk writer may commit several transactions at once (see {@code
   * OrderedBatches}); otherwise it commits one batch after another.
   */
  default boolean commitsBulkBatchesConcurrently() {
    return true;
  }

  /**
   * Whether reads take the properties column as the UTF-8 bytes the driver received ({@code
   * ResultSet.getBytes}), which responses copy as they are.
   */
  default boolean readsDocumentsAsUtf8() {
    return false;
  }

  /** The same for stored text as UTF-8 bytes. */
  default boolean decodesUtf8AsIs(byte[] stored, int offset, int length) {
    return false;
  }

  /** The properties column (JSON text on H2, jsonb on PostgreSQL). */
  Field<Object> propertiesColumn();

  /** A properties document as a bind value for {@link #propertiesColumn()}. */
  Field<Object> propertiesValue(String json);

  /** A properties document as the JDBC value bound to {@link #propertiesColumn()} in batches. */
  Object propertiesBindValue(String json);

  /**
   * A bind parameter of the properties column's type in SQL written as text ({@link
   * EntityStatements}), bound with the document's JSON text.
   */
  String propertiesParameter();

  /**
   * The rows of several new entities of one partition, in their order, as a row source for one
   * multi-row insert: a FROM item of columns {@code r} (row key), {@code t} (ticks), {@code p}
   * (properties, as {@link #propertiesParameter()} takes them) and {@code n} (the row's place),
   * from three array binds (row keys, ticks, properties); empty when the database has none, and
   * each entity is then a statement of a JDBC batch.
   */
  default java.util.Optional<String> rowsOfArrays() {
    return java.util.Optional.empty();
  }

  /**
   * Whether the database keeps the scalar store (trestle_entity_scalar, chosen when PostgreSQL's
   * schema version 8 was applied: {@link ScalarStoreMigration}): then every write of an entity's
   * properties also writes its scalar row ({@link dev.trestle.store.internal.codec.ScalarDocument})
   * in the same statement, bound after the statement's other binds, and every delete of an entity
   * deletes its scalar row (the trigger of migrations/optional/postgresql-scalar-store.sql); and a
   * filter scan without a declared index reads it instead of the wide entity rows ({@code
   * ScalarPrefilter}).
   */
  default boolean hasScalarStore() {
    return false;
  }

  /** This dialect for a database that has the scalar store (PostgreSQL only). */
  default Dialect withScalarStore() {
    throw new UnsupportedOperationException("no scalar store on this database");
  }

  /** The SQL type names of the arrays {@link #rowsOfArrays()} binds: text, then ticks. */
  default String[] arrayTypes() {
    return new String[] {"varchar", "bigint"};
  }

  /**
   * {@code dml}, a statement writing entity rows, made to answer the {@code ticks} of every row it
   * wrote.
   */
  String returningTicks(String dml);

  /**
   * Writes one entity, inserted or replacing the stored one, in one statement that answers its new
   * ticks, and nothing when the table is missing. Binds: partition key, row key, ticks, properties,
   * then the catalog row's account and name key. A replaced row's ticks are the later of the bound
   * ticks and its stored ticks plus one, so that an entity's versions increase whatever clock wrote
   * them. A race with another insert of the same new key may fail with a duplicate key. With {@link
   * #hasScalarStore()} the scalar document is bound last.
   */
  String upsertReplace();

  /** The JSON text of a value read from {@link #propertiesColumn()}. */
  String propertiesText(Object columnValue);

  /**
   * The entity table as queries read it (with an index hint where the planner needs one), under an
   * alias.
   */
  Table<Record> entitiesForReading(String alias);

  /**
   * {@code property operator literal} for a user property, true only when the entity has the
   * property with a stored type in {@code acceptedTypes} and the comparison holds. Never NULL, so
   * NOT can be applied to it.
   */
  Condition compareProperty(
      String property,
      Set<StoredType> acceptedTypes,
      ComparisonOperator operator,
      PropertyValue literal);

  /**
   * {@code property operator literal} on a scalar store document ({@code scalars}) for the values
   * of the accepted types, as {@link #compareProperty} decides it on the entity's properties: with
   * {@code orMarked}, true also where the document marks the value as too large to copy (a
   * necessary condition), without, true only for a copied value that compares (a sufficient one).
   * Never NULL. Only where {@link #hasScalarStore()}.
   */
  default Condition compareScalar(
      Field<?> scalars,
      Set<StoredType> acceptedTypes,
      String property,
      ComparisonOperator operator,
      PropertyValue literal,
      boolean orMarked) {
    throw new UnsupportedOperationException("no scalar store");
  }

  /**
   * One condition for a filter that compares user properties only ({@link
   * dev.trestle.filter.FilterExpression.Comparison}s of properties other than the keys and {@code
   * Timestamp}, under {@code and}, {@code or}, {@code not} and constants), with the meaning of its
   * comparisons' {@link #compareProperty} conditions combined; null when this database evaluates it
   * comparison by comparison. Never NULL.
   */
  default Condition propertyFilter(dev.trestle.filter.FilterExpression filter) {
    return null;
  }

  /**
   * The stored text (as {@link #encodeText} makes it) of a user property when it is a String, NULL
   * when the entity lacks it or holds another type.
   */
  Field<String> stringProperty(String property);

  /** Stored text as compared by the service: by UTF-16 code unit (a binary collation). */
  default Field<String> ordinal(Field<String> stored) {
    return stored;
  }

  /**
   * Whether stored text (already case-mapped) passes a text test against {@code literal}, stored
   * form too: {@code contains}, {@code startswith} and {@code endswith} match whole units, never
   * through a {@code LIKE} pattern (whose {@code %}, {@code _} and {@code \\} a literal would
   * otherwise have to escape). NULL when {@code stored} is NULL.
   */
  default Condition textTest(Field<String> stored, TextOperator operator, String literal) {
    Field<String> text = ordinal(stored);
    Field<String> value = DSL.val(literal);
    return switch (operator) {
      case EQ -> text.eq(value);
      case NE -> text.ne(value);
      case GT -> text.gt(value);
      case GE -> text.ge(value);
      case LT -> text.lt(value);
      case LE -> text.le(value);
      case STARTS_WITH -> DSL.left(stored, DSL.charLength(value)).eq(value);
      case ENDS_WITH -> DSL.right(stored, DSL.charLength(value)).eq(value);
      case CONTAINS -> DSL.position(stored, value).gt(DSL.inline(0));
    };
  }

  /**
   * ASCII text with its letters mapped by the case ({@code A-Z} to {@code a-z} or back, nothing
   * else), where the database has a faster way than {@code translate}; null when it has none.
   */
  default Field<String> asciiCase(Field<String> ascii, TextCase textCase) {
    return null;
  }

  /**
   * The select, locking the rows it reads against updates to the transaction's end. Where the
   * database has it, a shared lock that a foreign key's check (an insert of an entity) does not
   * wait for; H2 has only FOR UPDATE.
   */
  default <R extends Record> ResultQuery<R> lockedAgainstUpdates(SelectForUpdateStep<R> select) {
    return select.forUpdate();
  }
}
