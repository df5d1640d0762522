package dev.trestle.store.internal.h2;

import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.val;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.database.Dialect;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * H2: properties as JSON text, compared by deterministic Java functions ({@link H2Functions})
 * registered by the H2 migrations: a filter's property comparisons in one {@code trestle_matches}
 * call per row, a single comparison (time to live) by {@code trestle_compare}. H2 already orders
 * strings by UTF-16 code units.
 */
final class H2Dialect implements Dialect {
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Field<Object> PROPERTIES =
      (Field) DSL.field(DSL.name("properties"), SQLDataType.VARCHAR);

  /**
   * No: H2's file store saves its maps one after another while other transactions go on (h2database
   * issue 2080), so a process killed while several batches commit can leave a row version that no
   * transaction owns, which blocks its key for good (a resumed copy hung on it). One commit at a
   * time leaves nothing half-written.
   */
  @Override
  public boolean commitsBulkBatchesConcurrently() {
    return false;
  }

  @Override
  public void prepareDatabase(org.jooq.DSLContext sql) {
    sql.connection(H2Dialect::exportFunctionsToDriver);
    // Each commit reaches the file before it returns, whatever the URL (see
    // dev.trestle.store.JdbcUrls); a
    // user without admin rights cannot change it and is told so once.
    try {
      sql.execute("SET WRITE_DELAY 0");
    } catch (org.jooq.exception.DataAccessException e) {
      org.slf4j.LoggerFactory.getLogger(H2Dialect.class)
          .warn(
              "Could not set H2's WRITE_DELAY to 0 ({}): acknowledged writes may be lost if the process crashes",
              e.getMessage());
    }
  }

  /**
   * A chunk per transaction: H2's writers go one at a time, and one statement for a large table (13
   * s for 100,000 entities) would hold up every other writer of the database for all of it.
   */
  @Override
  public void deleteEntitiesOf(java.sql.Connection connection, long tableId)
      throws java.sql.SQLException {
    try (java.sql.PreparedStatement delete =
        connection.prepareStatement(
            "delete from trestle_entity where table_id = ? fetch first 1000 rows only")) {
      delete.setLong(1, tableId);
      while (delete.executeUpdate() > 0) {
        // the next chunk, in a transaction of its own
      }
    }
  }

  @Override
  public void removeDeletedTableStragglers(java.sql.Connection connection, long tableId)
      throws java.sql.SQLException {
    H2DeletedTableStragglers.remove(connection, tableId);
  }

  /**
   * H2 calls {@link H2Functions} reflectively, which a named {@code dev.trestle} module allows only
   * to modules its package is exported to: {@code module-info} exports it to a modular H2, and this
   * to an H2 on the class path (an unnamed module). Without a module (all on the class path) it
   * does nothing.
   */
  private static void exportFunctionsToDriver(java.sql.Connection connection)
      throws java.sql.SQLException {
    Class<?> driverClass = connection.unwrap(java.sql.Connection.class).getClass();
    if (driverClass.getName().startsWith("org.h2.")) {
      H2Functions.class
          .getModule()
          .addExports(H2Functions.class.getPackageName(), driverClass.getModule());
    }
  }

  @Override
  public SQLDialect sqlDialect() {
    return SQLDialect.H2;
  }

  @Override
  public String encodeText(String text) {
    return text;
  }

  @Override
  public String decodeText(String stored) {
    return stored;
  }

  @Override
  public boolean decodesAsIs(char[] stored, int offset, int length) {
    return true;
  }

  @Override
  public Field<Object> propertiesColumn() {
    return PROPERTIES;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Field<Object> propertiesValue(String json) {
    return (Field) val(json, SQLDataType.VARCHAR);
  }

  @Override
  public Object propertiesBindValue(String json) {
    return json;
  }

  @Override
  public String propertiesParameter() {
    return "cast(? as varchar)";
  }

  /**
   * One statement instead of a JDBC batch of one per entity (which H2 runs as separate executions);
   * WITH ORDINALITY keeps the operations' order.
   */
  @Override
  public java.util.Optional<String> rowsOfArrays() {
    return java.util.Optional.of(
        "unnest(cast(? as varchar array), cast(? as bigint array), cast(? as varchar array))"
            + " with ordinality as u(r, t, p, n)");
  }

  @Override
  public String returningTicks(String dml) {
    return "select ticks from final table (" + dml + ")";
  }

  @Override
  public String upsertReplace() {
    return returningTicks(
        "merge into trestle_entity e using (select id table_id, cast(? as varchar) partition_key,"
            + " cast(? as varchar) row_key, cast(? as bigint) ticks, cast(? as varchar) properties"
            + " from trestle_table where account = ? and name_key = ?) s"
            + " on e.table_id = s.table_id and e.partition_key = s.partition_key"
            + " and e.row_key = s.row_key"
            + " when matched then update set ticks = greatest(s.ticks, e.ticks + 1),"
            + " properties = s.properties"
            + " when not matched then insert (table_id, partition_key, row_key, ticks, properties)"
            + " values (s.table_id, s.partition_key, s.row_key, s.ticks, s.properties)");
  }

  @Override
  public String propertiesText(Object columnValue) {
    return columnValue.toString();
  }

  /**
   * H2 plans with statistics sampled from the first rows of a table and may pick the foreign key's
   * index on table_id, reading a whole table to find one partition; naming the key index keeps
   * every read a range scan.
   */
  @Override
  public Table<Record> entitiesForReading(String alias) {
    return DSL.table("trestle_entity " + alias + " use index (trestle_entity_key)");
  }

  @Override
  public Condition compareProperty(
      String property,
      Set<StoredType> acceptedTypes,
      ComparisonOperator operator,
      PropertyValue literal) {
    String tags = acceptedTypes.stream().map(t -> t.tag).collect(Collectors.joining());
    return condition(
        "trestle_compare({0}, {1}, {2}, {3}, {4}, {5})",
        PROPERTIES,
        val(property),
        val(tags),
        val(operator.name()),
        val(StoredType.of(literal.type()).tag),
        val(StoredType.text(literal)));
  }

  /** One call of {@code trestle_matches} per row, the filter bound as one {@link FilterProgram}. */
  @Override
  public Condition propertyFilter(dev.trestle.filter.FilterExpression filter) {
    return condition("trestle_matches({0}, {1})", PROPERTIES, val(FilterProgram.write(filter)));
  }

  @Override
  public Field<String> stringProperty(String property) {
    return DSL.field("trestle_string({0}, {1})", SQLDataType.VARCHAR, PROPERTIES, val(property));
  }
}
