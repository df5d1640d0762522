package dev.trestle.store.internal;

import static dev.trestle.store.internal.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.Schema.ROW_KEY;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.TableEntity;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.ContinuationTokens.ResumePoint;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record3;
import org.jooq.impl.DSL;

/** Point reads and queries of one table's entities. */
final class EntityReader {
  private final Store store;
  private final String account;
  private final String tableName;

  EntityReader(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  /** One round trip: the catalog row tells TableNotFound from ResourceNotFound. */
  TableEntity get(String partitionKey, String rowKey, List<String> select) {
    Dialect dialect = store.dialect;
    Field<Long> tableId = field(name("t", "id"), Long.class);
    Field<Long> ticks = field(name("e", "ticks"), Long.class);
    Field<Object> properties = field(name("e", "properties"), dialect.propertiesColumn().getDataType());
    Record3<Long, Long, Object> row = store.sql.select(tableId, ticks, properties)
        .from(Schema.TABLES.as("t"))
        .leftJoin(dialect.entitiesForReading("e"))
        .on(field(name("e", "table_id"), Long.class).eq(tableId),
            field(name("e", "partition_key"), String.class).eq(dialect.encodeText(partitionKey)),
            field(name("e", "row_key"), String.class).eq(dialect.encodeText(rowKey)))
        .where(field(name("t", "account"), String.class).eq(account),
            field(name("t", "name_key"), String.class).eq(SqlTableService.nameKey(tableName)))
        .fetchOne();
    if (row == null) {
      throw TableLookup.tableNotFound();
    }
    if (row.value2() == null) {
      throw EntityWriter.resourceNotFound();
    }
    return new StoredRow(partitionKey, rowKey, row.value2(),
        store.properties.decode(dialect.propertiesText(row.value3()), select)).toEntity();
  }

  EntityPage query(EntityQuery query) {
    // From now: waiting for connections counts too. Each page still reads at least one step, so it makes progress.
    PageBudget budget = new PageBudget(store.queryLimits.budget());
    int top = PageSize.of(query.top());
    FilterTranslator translator = new FilterTranslator(store.dialect);
    FilterExpression expression = query.filter() == null || query.filter().isBlank()
        ? null
        : FilterParser.parse(query.filter());
    Condition filter = expression == null ? DSL.trueCondition() : translator.entities(expression);
    Condition keyRange = expression == null ? DSL.trueCondition() : translator.keyRange(expression);
    Condition candidates = expression == null ? null : store.propertyIndex.candidates(expression);
    Condition resume = query.continuation() == null
        ? null
        : resumeAt(ContinuationTokens.decodeAfter(query.continuation()));
    // The lookup and the page share one connection: a page waits for the pool once.
    return store.onOneConnection(sql -> {
      long tableId = TableLookup.id(sql, account, tableName);
      return new EntityScan(new ScanRequest(store, store.queryLimits, tableId, filter, keyRange, candidates,
          query.select(), budget)).page(sql, top, resume);
    });
  }

  private Condition resumeAt(ResumePoint resume) {
    String partitionKey = store.dialect.encodeText(resume.partitionKey());
    if (resume.rowKey() == null) {
      return PARTITION_KEY.ge(partitionKey);
    }
    return DSL.row(PARTITION_KEY, ROW_KEY).gt(partitionKey, store.dialect.encodeText(resume.rowKey()));
  }

}
