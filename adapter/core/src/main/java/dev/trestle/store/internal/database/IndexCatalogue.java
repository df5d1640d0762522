package dev.trestle.store.internal.database;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.trestle.EdmType;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * The catalogue of declared property indexes (table {@code trestle_property_index}): which
 * properties of which table are indexed for which kind of value, under which physical index, and
 * whether it is built. The one home of these rows; the database builds the indexes ({@link
 * IndexBuilder}), and queries find a table's ready ones together with its id ({@link #lookup}).
 */
public final class IndexCatalogue {
  static final Table<Record> INDEXES = table(name("trestle_property_index"));
  static final Field<Long> TABLE = field(name("table_id"), SQLDataType.BIGINT);
  static final Field<String> PROPERTY = field(name("property"), SQLDataType.VARCHAR);
  static final Field<String> KIND = field(name("value_kind"), SQLDataType.VARCHAR);
  static final Field<String> TYPE = field(name("edm_type"), SQLDataType.VARCHAR);
  static final Field<String> THEN = field(name("then_properties"), SQLDataType.VARCHAR);
  static final Field<String> INDEX_NAME = field(name("index_name"), SQLDataType.VARCHAR);
  static final Field<String> STATE = field(name("state"), SQLDataType.VARCHAR);
  static final Field<Long> DECLARED = field(name("declared"), SQLDataType.BIGINT);

  private static final String BUILDING = "building";
  private static final String READY = "ready";

  private IndexCatalogue() {}

  /** A table's id and its ready indexes, which is what a query needs to find its candidates. */
  public record IndexedTable(long id, List<DeclaredIndex> ready, Expiry expiry) {
    public IndexedTable(long id, List<DeclaredIndex> ready) {
      this(id, ready, Expiry.NEVER);
    }
  }

  /** The statement of {@link #lookup}: account, name key. */
  private static final String LOOKUP =
      "select t.id, i.property, i.value_kind, i.edm_type, i.index_name, t.ttl_enabled,"
          + " t.default_ttl, i.then_properties from trestle_table t left join trestle_property_index i"
          + " on i.table_id = t.id and i.state = '"
          + READY
          + "' where t.account = ? and t.name_key = ?";

  /**
   * The table's id and its ready indexes, in one statement; {@code TableNotFound} when there is no
   * such table. Its text is fixed and run through plain JDBC: every query starts here, and
   * rendering it cost a tenth of reading a page of a thousand entities.
   */
  public static IndexedTable lookup(Store store, DSLContext sql, String account, String tableName) {
    return store.withConnection(
        sql,
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(LOOKUP)) {
            statement.setString(1, account);
            statement.setString(2, TableLookup.nameKey(tableName));
            try (ResultSet rows = statement.executeQuery()) {
              if (!rows.next()) {
                throw StoreErrors.tableNotFound();
              }
              long tableId = rows.getLong(1);
              Expiry expiry = Expiry.of(rows.getBoolean(6), rows.getObject(7, Long.class));
              List<DeclaredIndex> ready = new ArrayList<>();
              do {
                String property = rows.getString(2);
                if (property != null) {
                  ready.add(
                      new DeclaredIndex(
                          tableId,
                          property,
                          ValueKind.ofStoredName(rows.getString(3)),
                          EdmType.fromOdataName(rows.getString(4)),
                          DeclaredIndex.parseThen(rows.getString(8)),
                          rows.getString(5),
                          true));
                }
              } while (rows.next());
              return new IndexedTable(tableId, List.copyOf(ready), expiry);
            }
          }
        });
  }

  /** Every index declared on the table, ready or not, by property and kind. */
  public static List<DeclaredIndex> declared(DSLContext sql, long tableId) {
    return sql.select(PROPERTY, KIND, TYPE, INDEX_NAME, STATE, THEN)
        .from(INDEXES)
        .where(TABLE.eq(tableId))
        .orderBy(PROPERTY, KIND)
        .fetch(
            row ->
                new DeclaredIndex(
                    tableId,
                    row.value1(),
                    ValueKind.ofStoredName(row.value2()),
                    EdmType.fromOdataName(row.value3()),
                    DeclaredIndex.parseThen(row.value6()),
                    row.value4(),
                    READY.equals(row.value5())));
  }

  /** The declaration led by this property and kind on the table, if any. */
  public static Optional<DeclaredIndex> find(
      DSLContext sql, long tableId, String property, ValueKind kind) {
    return declared(sql, tableId).stream().filter(d -> d.serves(property, kind)).findFirst();
  }

  /**
   * Declares the index (not yet ready) unless it is declared already, and returns the declaration
   * as stored: a concurrent declaration of the same index is the same declaration. One led by the
   * same property and kind over other further properties is {@code InvalidInput}.
   */
  public static DeclaredIndex declare(
      DSLContext sql,
      long tableId,
      String property,
      ValueKind kind,
      EdmType type,
      List<DeclaredIndex.Column> then,
      long ticks) {
    Optional<DeclaredIndex> existing = find(sql, tableId, property, kind);
    if (existing.isPresent()) {
      return same(existing.get(), then);
    }
    try {
      sql.insertInto(INDEXES, TABLE, PROPERTY, KIND, TYPE, THEN, INDEX_NAME, STATE, DECLARED)
          .values(
              tableId,
              property,
              kind.storedName(),
              type.odataName(),
              DeclaredIndex.storedThen(then),
              indexName(tableId, property, kind, then),
              BUILDING,
              ticks)
          .execute();
    } catch (org.jooq.exception.DataAccessException e) {
      // Declared by someone else meanwhile: theirs is this one, if it is the same.
      return same(find(sql, tableId, property, kind).orElseThrow(() -> e), then);
    }
    return find(sql, tableId, property, kind).orElseThrow();
  }

  /** The existing declaration when its further properties are {@code then}. */
  private static DeclaredIndex same(DeclaredIndex existing, List<DeclaredIndex.Column> then) {
    if (!existing.hasThen(then)) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "An index led by "
              + existing.property()
              + " is declared already over other properties ("
              + existing.columns().stream().map(DeclaredIndex.Column::property).toList()
              + "); drop it first.");
    }
    return existing;
  }

  /** Marks the index built: queries read through it from now on. */
  public static void markReady(DSLContext sql, DeclaredIndex index) {
    sql.update(INDEXES)
        .set(STATE, READY)
        .where(TABLE.eq(index.tableId()), INDEX_NAME.eq(index.indexName()))
        .execute();
  }

  /** Removes the declaration; false when there was none. */
  public static boolean remove(DSLContext sql, DeclaredIndex index) {
    return sql.deleteFrom(INDEXES)
            .where(TABLE.eq(index.tableId()), INDEX_NAME.eq(index.indexName()))
            .execute()
        > 0;
  }

  /**
   * The physical index's name: unique per table, properties and kinds, and within PostgreSQL's 63
   * characters whatever the properties' names (which appear only as a digest). An index over one
   * property keeps the name it had before indexes over several were declared.
   */
  static String indexName(
      long tableId, String property, ValueKind kind, List<DeclaredIndex.Column> then) {
    StringBuilder named = new StringBuilder(property);
    for (DeclaredIndex.Column column : then) {
      // property names hold no ';' or ':'
      named.append(';').append(column.property()).append(':').append(column.kind().storedName());
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(named.toString().getBytes(StandardCharsets.UTF_8));
      return "trestle_px_"
          + tableId
          + "_"
          + kind.storedName().replace("_", "")
          + "_"
          + HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
