package dev.trestle.store.internal.database;

import static dev.trestle.store.internal.database.Schema.ACCOUNT;
import static dev.trestle.store.internal.database.Schema.NAME_KEY;
import static dev.trestle.store.internal.database.Schema.TABLES;
import static dev.trestle.store.internal.database.Schema.TABLE_ID;

import java.util.Locale;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * How a table's catalog row is found: by account and name, case-insensitively (the row's key is the
 * lower-cased name). Every table and entity operation finds its table through here.
 */
public final class TableLookup {
  private TableLookup() {}

  /** The catalog row of this account's table. */
  public static Condition row(String account, String tableName) {
    return ACCOUNT.eq(account).and(NAME_KEY.eq(nameKey(tableName)));
  }

  /**
   * The catalog row of this account's table, in a query that reads the catalog under {@code alias}.
   */
  public static Condition row(String alias, String account, String tableName) {
    return DSL.field(DSL.name(alias, ACCOUNT.getName()), String.class)
        .eq(account)
        .and(DSL.field(DSL.name(alias, NAME_KEY.getName()), String.class).eq(nameKey(tableName)));
  }

  /**
   * The table's id as a subquery (NULL when there is no such table), so a statement needs no
   * separate lookup.
   */
  public static Field<Long> idField(String account, String tableName) {
    return DSL.field(DSL.select(TABLE_ID).from(TABLES).where(row(account, tableName)));
  }

  /** The table's id, or {@code TableNotFound}. */
  public static long id(DSLContext sql, String account, String tableName) {
    Long id = sql.select(TABLE_ID).from(TABLES).where(row(account, tableName)).fetchOne(TABLE_ID);
    if (id == null) {
      throw StoreErrors.tableNotFound();
    }
    return id;
  }

  /** The catalog row's key for a table name: Table names are case-insensitive. */
  public static String nameKey(String tableName) {
    return tableName.toLowerCase(Locale.ROOT);
  }
}
