package dev.trestle.store.internal.database;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * The tables and columns of the migrations, as jOOQ names. Unqualified, so the connection's schema
 * (search path) decides where they live. The properties column differs per database and comes from
 * the dialect.
 */
public final class Schema {
  private Schema() {}

  public static final Table<Record> TABLES = table(name("trestle_table"));
  public static final Field<Long> TABLE_ID = field(name("id"), SQLDataType.BIGINT);
  public static final Field<String> ACCOUNT = field(name("account"), SQLDataType.VARCHAR);
  public static final Field<String> NAME_KEY = field(name("name_key"), SQLDataType.VARCHAR);
  public static final Field<String> NAME = field(name("name"), SQLDataType.VARCHAR);
  public static final Field<Long> CREATED = field(name("created"), SQLDataType.BIGINT);
  public static final Field<String> ACCESS_POLICIES =
      field(name("access_policies"), SQLDataType.VARCHAR);

  /**
   * Time to live (migration V4): whether the table's entities expire, and its default in seconds.
   */
  public static final Field<Boolean> TTL_ENABLED = field(name("ttl_enabled"), SQLDataType.BOOLEAN);

  public static final Field<Long> DEFAULT_TTL = field(name("default_ttl"), SQLDataType.BIGINT);

  public static final Table<Record> ENTITIES = table(name("trestle_entity"));
  public static final Field<Long> ENTITY_TABLE = field(name("table_id"), SQLDataType.BIGINT);
  public static final Field<String> PARTITION_KEY =
      field(name("partition_key"), SQLDataType.VARCHAR);
  public static final Field<String> ROW_KEY = field(name("row_key"), SQLDataType.VARCHAR);
  public static final Field<Long> TICKS = field(name("ticks"), SQLDataType.BIGINT);

  /**
   * The scalar store (PostgreSQL, chosen when the database was created): per entity, keyed as the
   * entity, its small values in one flat document.
   */
  public static final Table<Record> SCALARS = table(name("trestle_entity_scalar"));

  public static final Table<Record> SERVICE_PROPERTIES = table(name("trestle_service_properties"));
  public static final Field<String> DOCUMENT = field(name("document"), SQLDataType.VARCHAR);
}
