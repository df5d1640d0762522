package dev.trestle.store.internal;

import static dev.trestle.store.internal.Schema.ACCOUNT;
import static dev.trestle.store.internal.Schema.NAME_KEY;
import static dev.trestle.store.internal.Schema.TABLES;
import static dev.trestle.store.internal.Schema.TABLE_ID;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import org.jooq.DSLContext;

/** Finds a table's id by account and name (case-insensitively); every entity operation starts here. */
final class TableLookup {
  private TableLookup() {}

  static long id(DSLContext sql, String account, String tableName) {
    Long id = sql.select(TABLE_ID)
        .from(TABLES)
        .where(ACCOUNT.eq(account), NAME_KEY.eq(SqlTableService.nameKey(tableName)))
        .fetchOne(TABLE_ID);
    if (id == null) {
      throw tableNotFound();
    }
    return id;
  }

  static TableException tableNotFound() {
    return new TableException(TableErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
  }
}
