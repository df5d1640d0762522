package dev.trestle.store.internal.database;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The SQL text of every statement of the write path and of the point read, built once per store and
 * run through plain JDBC: rendering a statement per call cost a fifth of an insert's CPU. Each
 * comment lists the binds in order; {@code account, name key} find the table's catalog row.
 */
public final class EntityStatements {
  private static final String TABLE_ID =
      "(select id from trestle_table where account = ? and name_key = ?)";

  /**
   * {@link #TABLE_ID} of a table without time to live: the writes that do not read first change
   * nothing in a table with TTL, whose entities may have expired, and are decided again by reading.
   */
  /** Whether the locked entity's table has time to live (not locking the catalog row). */
  private static final String TTL_ENABLED =
      "(select ttl_enabled from trestle_table t where t.id = e.table_id)";

  private static final String TABLE_WITHOUT_TTL =
      "(select id from trestle_table where account = ? and name_key = ? and not ttl_enabled)";

  /** The table's id: account, name key. */
  public final String tableId = "select id from trestle_table where account = ? and name_key = ?";

  /**
   * A new entity, no row when the table is missing: partition key, row key, ticks, properties,
   * account, name key.
   */
  public final String insert;

  /** See {@link Dialect#upsertReplace()}; answers the ticks. */
  public final String upsertReplace;

  /**
   * A stored entity replaced over the version it was decided against (nothing in a table with time
   * to live), answering its new ticks (the later of the bound ticks and the stored ticks plus one):
   * ticks, properties, account, name key, partition key, row key, expected ticks.
   */
  public final String replaceIfVersion;

  /**
   * {@link #replaceIfVersion} of a version read and decided on, also in a table with time to live:
   * the same binds.
   */
  public final String replaceDecided;

  /** {@link #replaceIfVersion} over any version: the same binds without the expected ticks. */
  public final String replaceAny;

  /**
   * Deletes the version it was decided against (nothing in a table with time to live): account,
   * name key, partition key, row key, ticks.
   */
  public final String deleteIfVersion;

  /** {@link #deleteIfVersion} of a version read and decided on: the same binds. */
  public final String deleteDecided;

  /** {@link #deleteIfVersion} over any version: the same binds without the ticks. */
  public final String deleteAny;

  /**
   * The table's id, the entity's ticks and properties (nulls when there is none) and the table's
   * time to live; no row when the table is missing: partition key, row key, account, name key.
   */
  public final String read;

  /** An entity-group transaction's insert: table id, partition key, row key, ticks, properties. */
  public final String groupInsert;

  /**
   * An entity-group transaction's replacement of a locked version: ticks, properties, table id,
   * partition key, row key, expected ticks.
   */
  public final String groupUpdate;

  /**
   * An entity-group transaction's delete of a locked version: table id, partition key, row key,
   * ticks.
   */
  public final String groupDelete;

  /**
   * New entities of one partition in one statement, in the order given, no row when the table is
   * missing, or null when the dialect has no {@link Dialect#rowsOfArrays()}: partition key, row
   * keys, ticks and properties (arrays), account, name key.
   */
  public final String insertRows;

  /**
   * {@link #insertRows} of an entity-group transaction that knows its table: table id, partition
   * key, row keys, ticks, properties.
   */
  public final String groupInsertRows;

  private static final String SCALAR_UPSERT =
      "insert into trestle_entity_scalar (table_id, partition_key, row_key, scalars, signature)"
          + " select"
          + " w.table_id, w.partition_key, w.row_key, ";

  /**
   * A written entity's scalar row replaces the one it had. New entities insert theirs plainly,
   * which costs less than a speculative insert: no scalar row can be there without its entity,
   * since deletes and truncates of entities remove theirs
   * (migrations/optional/postgresql-scalar-store.sql).
   */
  private static final String SCALAR_CONFLICT =
      " on conflict (table_id, partition_key, row_key) do update set scalars = excluded.scalars,"
          + " signature = excluded.signature";

  private final String entitiesForReading;
  private final ConcurrentMap<Integer, String> locks = new ConcurrentHashMap<>();
  private final ConcurrentMap<Integer, String> locksWithProperties = new ConcurrentHashMap<>();

  EntityStatements(Dialect dialect, String entitiesForReading) {
    String properties = dialect.propertiesParameter();
    boolean scalars = dialect.hasScalarStore();
    this.entitiesForReading = entitiesForReading;
    this.insert =
        inserted(
            scalars,
            "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties)"
                + " select id, cast(? as varchar), cast(? as varchar), cast(? as bigint), "
                + properties
                + " from trestle_table where account = ? and name_key = ?");
    this.upsertReplace = dialect.upsertReplace();
    String replace =
        "update trestle_entity set ticks = greatest(cast(? as bigint), ticks + 1), properties = "
            + properties
            + " where table_id = ";
    String keys = " and partition_key = ? and row_key = ?";
    this.replaceAny = writtenTicks(dialect, replace + TABLE_WITHOUT_TTL + keys);
    this.replaceIfVersion =
        writtenTicks(dialect, replace + TABLE_WITHOUT_TTL + keys + " and ticks = ?");
    this.replaceDecided = writtenTicks(dialect, replace + TABLE_ID + keys + " and ticks = ?");
    String delete = "delete from trestle_entity where table_id = ";
    this.deleteAny = delete + TABLE_WITHOUT_TTL + keys;
    this.deleteIfVersion = delete + TABLE_WITHOUT_TTL + keys + " and ticks = ?";
    this.deleteDecided = delete + TABLE_ID + keys + " and ticks = ?";
    this.read =
        "select t.id, e.ticks, e.properties, t.ttl_enabled, t.default_ttl"
            + " from trestle_table t left join "
            + entitiesForReading
            + " on e.table_id = t.id and e.partition_key = ? and e.row_key = ?"
            + " where t.account = ? and t.name_key = ?";
    this.groupInsert =
        inserted(
            scalars,
            "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties)"
                + " values (?, ?, ?, ?, "
                + properties
                + ")");
    String rows = dialect.rowsOfArrays().orElse(null);
    String columns =
        "insert into trestle_entity (table_id, partition_key, row_key, ticks, properties)";
    String values = "cast(? as varchar), u.r, u.t, " + properties.replace("?", "u.p");
    this.insertRows =
        rows == null
            ? null
            : rowsWritten(
                scalars,
                columns
                    + " select c.id, "
                    + values
                    + " from trestle_table c cross join "
                    + rows
                    + " where c.account = ? and c.name_key = ? order by u.n");
    this.groupInsertRows =
        rows == null
            ? null
            : rowsWritten(
                scalars,
                columns
                    + " select cast(? as bigint), "
                    + values
                    + " from "
                    + rows
                    + " order by u.n");
    this.groupUpdate =
        written(
            scalars,
            "update trestle_entity set ticks = greatest(cast(? as bigint), ticks + 1), properties"
                + " = "
                + properties
                + " where table_id = ? and partition_key = ? and row_key = ? and ticks = ?");
    this.groupDelete =
        "delete from trestle_entity where table_id = ? and partition_key = ? and row_key = ?"
            + " and ticks = ?";
  }

  /**
   * {@code dml}, writing the properties of entity rows, made to write their scalar rows too when
   * the store has them, in the same statement: the scalar document and its signature ({@link
   * dev.trestle.store.internal.codec.ScalarDocument.ScalarRow}) are bound after {@code dml}'s
   * binds, and the statement answers {@code dml}'s rows, as an update count, or their ticks when
   * {@code returningTicks} (without the scalar store, {@code dml} must then answer them itself).
   */
  public static String withScalars(String dml, boolean returningTicks) {
    String written =
        "with w as ("
            + dml
            + " returning table_id, partition_key, row_key"
            + (returningTicks ? ", ticks) " : ") ");
    String scalar = SCALAR_UPSERT + "cast(? as jsonb), cast(? as bigint) from w" + SCALAR_CONFLICT;
    return returningTicks
        ? written + ", s as (" + scalar + ") select ticks from w"
        : written + scalar;
  }

  private static String written(boolean scalars, String dml) {
    return scalars ? withScalars(dml, false) : dml;
  }

  /** {@link #written} of new entities. */
  private static String inserted(boolean scalars, String dml) {
    return scalars ? withScalars(dml, false).replace(SCALAR_CONFLICT, "") : dml;
  }

  private static String writtenTicks(Dialect dialect, String dml) {
    return dialect.hasScalarStore() ? withScalars(dml, true) : dialect.returningTicks(dml);
  }

  /**
   * {@link #withScalars} of a multi-row insert of new entities from arrays: binds three more
   * arrays, the row keys, their scalar documents and their signatures, in the same order.
   */
  private static String rowsWritten(boolean scalars, String dml) {
    if (!scalars) {
      return dml;
    }
    return "with w as ("
        + dml
        + " returning table_id, partition_key, row_key) "
        + SCALAR_UPSERT
        + "cast(s.v as jsonb), s.g from w"
        + " join unnest(cast(? as text[]), cast(? as text[]), cast(? as bigint[])) as s(r, v, g)"
        + " on s.r = w.row_key";
  }

  /**
   * Locks and reads the stored versions of {@code rowKeys} entities of one partition, in key order
   * (a fixed lock order keeps two transactions over the same entities from deadlocking): table id,
   * row key, ticks, properties (null unless asked for or the table has time to live), the table's
   * ttl_enabled and default_ttl. Binds: account, name key, partition key, then each row key.
   */
  public String lock(int rowKeys, boolean withProperties) {
    return (withProperties ? locksWithProperties : locks)
        .computeIfAbsent(rowKeys, n -> lockText(n, withProperties));
  }

  private String lockText(int rowKeys, boolean withProperties) {
    StringBuilder sql =
        new StringBuilder("select e.table_id, e.row_key, e.ticks, ")
            .append(
                withProperties
                    ? "e.properties"
                    : "case when " + TTL_ENABLED + " then e.properties end")
            .append(", ")
            .append(TTL_ENABLED)
            .append(", (select default_ttl from trestle_table t where t.id = e.table_id) from ")
            .append(entitiesForReading)
            .append(" where e.table_id = ")
            .append(TABLE_ID)
            .append(" and e.partition_key = ? and e.row_key ");
    if (rowKeys == 1) {
      sql.append("= ?");
    } else {
      sql.append("in (?");
      sql.append(", ?".repeat(rowKeys - 1));
      sql.append(')');
    }
    return sql.append(" order by e.table_id, e.partition_key, e.row_key for update").toString();
  }
}
