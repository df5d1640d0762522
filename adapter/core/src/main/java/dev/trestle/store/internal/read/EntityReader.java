package dev.trestle.store.internal.read;

import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;

import dev.trestle.EntityQuery;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.codec.ContinuationTokens;
import dev.trestle.store.internal.codec.ContinuationTokens.ResumePoint;
import dev.trestle.store.internal.database.DeclaredIndex;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.IndexCatalogue;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.PageBudget;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.ScanShape;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoredPage;
import dev.trestle.store.internal.filter.FilterTranslator;
import dev.trestle.store.internal.filter.IndexCandidates;
import dev.trestle.store.internal.filter.ScalarPrefilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.impl.DSL;

/** Queries of one table's entities. */
public final class EntityReader {
  private final Store store;
  private final String account;
  private final String tableName;

  public EntityReader(Store store, String account, String tableName) {
    this.store = store;
    this.account = account;
    this.tableName = tableName;
  }

  /** One page of a query, its entities not yet decoded. */
  public StoredPage query(EntityQuery query) {
    // From now: waiting for connections counts too. Each page still reads at least one step, so it
    // makes progress.
    PageBudget budget = new PageBudget(store.queryLimits.budget());
    int top = PageSize.of(query.top());
    FilterTranslator translator = new FilterTranslator(store.dialect);
    Condition filter = DSL.trueCondition();
    Condition keyRange = DSL.trueCondition();
    Condition candidates = null;
    Condition prefilter = null;
    FilterExpression expression = null;
    // The shape of a filter of keys alone, and its values (null: another filter).
    List<Object> filterBinds = new ArrayList<>();
    StringBuilder shape = new StringBuilder("keys ");
    if (query.filter() != null && !query.filter().isBlank()) {
      expression = FilterParser.parse(query.filter());
      filter = translator.entities(expression);
      keyRange = translator.keyRange(expression);
      candidates = store.propertyIndex.candidates(expression);
      if (store.dialect.hasScalarStore()) {
        prefilter = new ScalarPrefilter(store.dialect, "s").necessary(expression);
      }
      String keys = translator.keyShape(expression, filterBinds);
      shape = keys == null ? null : shape.append(keys);
    }
    if (query.keyRange() != null) {
      // the scan walks and matches only keys the caller may see: nothing outside the range is read
      Condition granted = within(store.dialect, query.keyRange(), filterBinds);
      filter = filter.and(granted);
      keyRange = keyRange.and(granted);
      if (shape != null) {
        shape.append(" within ").append(rangeShape(query.keyRange()));
      }
    }
    List<Object> resumeBinds = new ArrayList<>();
    Condition resume =
        query.continuation() == null
            ? null
            : resumeAt(ContinuationTokens.decodeAfter(query.continuation()), resumeBinds);
    ScanShape keyShape =
        shape == null || candidates != null
            ? null
            : ScanShape.ofKeys(
                shape.append(" resume ").append(resumeBinds.size()).toString(),
                filterBinds,
                resume,
                resumeBinds);
    Condition scanFilter = filter;
    Condition scanRange = keyRange;
    Condition ginCandidates = candidates;
    Condition scalarPrefilter = prefilter;
    FilterExpression parsed = expression;
    // The lookup and the page share one connection: a page waits for the pool once.
    return store.onOneConnection(
        sql -> {
          IndexedTable table = IndexCatalogue.lookup(store, sql, account, tableName);
          if (top == 0) {
            // an empty page, once the table is known to exist and the filter has parsed
            return new StoredPage(List.of(), Optional.empty());
          }
          long tableId = table.id();
          Condition scanCandidates =
              both(
                  ginCandidates,
                  new IndexCandidates(table.ready(), store.indexBuilder, translator).of(parsed));
          Condition alive = table.expiry().alive(store.dialect, store.versions.time());
          // The candidates follow from the filter and the table's ready indexes alone.
          String candidatesKey =
              scanCandidates == null
                  ? null
                  : tableId
                      + " "
                      + table.ready().stream().map(DeclaredIndex::indexName).toList()
                      + " "
                      + query.filter();
          return store.pages.page(
              sql,
              new ScanRequest(
                  store,
                  store.queryLimits,
                  tableId,
                  alive == null ? scanFilter : scanFilter.and(alive),
                  scanRange,
                  scanCandidates,
                  query.select(),
                  budget,
                  tableName,
                  candidatesKey,
                  // a time-to-live test or the index's candidates make another shape of scan
                  alive == null && scanCandidates == null ? keyShape : null,
                  scalarPrefilter),
              top,
              resume);
        });
  }

  /** Both necessary conditions, either, or null when there is none. */
  private static Condition both(Condition a, Condition b) {
    return a == null ? b : b == null ? a : a.and(b);
  }

  /** A SAS key range (or a caller's) as a condition on the stored keys. */
  public static Condition within(Dialect dialect, EntityQuery.KeyRange range) {
    return within(dialect, range, new ArrayList<>());
  }

  /** The same, adding the values it binds to {@code binds} in order. */
  private static Condition within(Dialect dialect, EntityQuery.KeyRange range, List<Object> binds) {
    Condition within = DSL.trueCondition();
    if (range.startPartitionKey() != null) {
      String partitionKey = dialect.encodeText(range.startPartitionKey());
      binds.add(partitionKey);
      if (range.startRowKey() != null) {
        binds.add(dialect.encodeText(range.startRowKey()));
      }
      within =
          within.and(
              range.startRowKey() == null
                  ? PARTITION_KEY.ge(partitionKey)
                  : DSL.row(PARTITION_KEY, ROW_KEY)
                      .ge(partitionKey, dialect.encodeText(range.startRowKey())));
    }
    if (range.endPartitionKey() != null) {
      String partitionKey = dialect.encodeText(range.endPartitionKey());
      binds.add(partitionKey);
      if (range.endRowKey() != null) {
        binds.add(dialect.encodeText(range.endRowKey()));
      }
      within =
          within.and(
              range.endRowKey() == null
                  ? PARTITION_KEY.le(partitionKey)
                  : DSL.row(PARTITION_KEY, ROW_KEY)
                      .le(partitionKey, dialect.encodeText(range.endRowKey())));
    }
    return within;
  }

  /** Which bounds of a key range are given, for a scan's shape. */
  private static String rangeShape(EntityQuery.KeyRange range) {
    return (range.startPartitionKey() != null ? "p" : "-")
        + (range.startRowKey() != null ? "r" : "-")
        + (range.endPartitionKey() != null ? "p" : "-")
        + (range.endRowKey() != null ? "r" : "-");
  }

  private Condition resumeAt(ResumePoint resume, List<Object> binds) {
    String partitionKey = store.dialect.encodeText(resume.partitionKey());
    binds.add(partitionKey);
    if (resume.rowKey() == null) {
      return PARTITION_KEY.ge(partitionKey);
    }
    String rowKey = store.dialect.encodeText(resume.rowKey());
    binds.add(rowKey);
    return DSL.row(PARTITION_KEY, ROW_KEY).gt(partitionKey, rowKey);
  }
}
