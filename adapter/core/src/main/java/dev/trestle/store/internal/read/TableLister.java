package dev.trestle.store.internal.read;

import static dev.trestle.store.internal.database.Schema.ACCOUNT;
import static dev.trestle.store.internal.database.Schema.CREATED;
import static dev.trestle.store.internal.database.Schema.NAME;
import static dev.trestle.store.internal.database.Schema.TABLES;

import dev.trestle.TableInfo;
import dev.trestle.TablePage;
import dev.trestle.TableQuery;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.codec.ContinuationTokens;
import dev.trestle.store.internal.codec.Ticks;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.filter.FilterTranslator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * Query Tables: an account's tables in ordinal name order, filtered on TableName, a page at a time.
 */
public final class TableLister {
  private final Store store;
  private final String account;

  public TableLister(Store store, String account) {
    this.store = store;
    this.account = account;
  }

  public TablePage list(TableQuery query) {
    int top = PageSize.of(query.top());
    Condition condition = ACCOUNT.eq(account);
    if (query.filter() != null && !query.filter().isBlank()) {
      condition =
          condition.and(
              new FilterTranslator(store.dialect).tables(FilterParser.parse(query.filter())));
    }
    if (query.nextTableName() != null) {
      condition = condition.and(NAME.ge(ContinuationTokens.decodeTableName(query.nextTableName())));
    }
    if (top == 0) {
      return new TablePage(List.of(), Optional.empty()); // the filter parsed
    }
    List<Record2<String, Long>> rows =
        store
            .sql
            .select(NAME, CREATED)
            .from(TABLES)
            .where(condition)
            .orderBy(ACCOUNT, NAME)
            .limit(DSL.inline(top + 1))
            .fetch();
    List<TableInfo> tables = new ArrayList<>(Math.min(rows.size(), top));
    for (int i = 0; i < Math.min(rows.size(), top); i++) {
      tables.add(new TableInfo(rows.get(i).value1(), Ticks.toInstant(rows.get(i).value2())));
    }
    Optional<String> next =
        rows.size() > top
            ? Optional.of(ContinuationTokens.encodeTableName(rows.get(top).value1()))
            : Optional.empty();
    return new TablePage(tables, next);
  }
}
