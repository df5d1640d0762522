package dev.trestle.store.internal.ext;

import dev.trestle.EntityQuery;
import dev.trestle.filter.FilterExpression;
import dev.trestle.filter.FilterParser;
import dev.trestle.store.internal.database.IndexCatalogue.IndexedTable;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.filter.FilterTranslator;
import dev.trestle.store.internal.filter.IndexCandidates;
import dev.trestle.store.internal.read.EntityReader;
import org.jooq.Condition;
import org.jooq.impl.DSL;

/**
 * What an extension's statement matches: the query's filter and key range as one condition on the
 * entity table, plus the necessary conditions the table's indexes serve (so that the database can
 * count or delete through them). Parsed before any connection is taken, so a bad filter costs none.
 */
record Matching(FilterExpression expression, Condition filter, Condition keyRange) {

  static Matching of(Store store, EntityQuery query) {
    FilterTranslator translator = new FilterTranslator(store.dialect);
    Condition filter = DSL.trueCondition();
    Condition keyRange = DSL.trueCondition();
    FilterExpression expression = null;
    if (query.filter() != null && !query.filter().isBlank()) {
      expression = FilterParser.parseExtended(query.filter());
      filter = translator.entities(expression);
      keyRange = translator.keyRange(expression);
    }
    if (query.keyRange() != null) {
      Condition granted = EntityReader.within(store.dialect, query.keyRange());
      filter = filter.and(granted);
      keyRange = keyRange.and(granted);
    }
    return new Matching(expression, filter, keyRange);
  }

  /** The whole condition for the table's rows, narrowed by whatever its indexes serve. */
  Condition on(Store store, IndexedTable table) {
    Condition all = keyRange.and(filter);
    Condition alive = table.expiry().alive(store.dialect, store.versions.time());
    if (alive != null) {
      all = all.and(alive); // expired entities are absent to the extensions too
    }
    Condition gin = expression == null ? null : store.propertyIndex.candidates(expression);
    Condition declared =
        new IndexCandidates(table.ready(), store.indexBuilder, new FilterTranslator(store.dialect))
            .of(expression);
    if (gin != null) {
      all = all.and(gin);
    }
    return declared == null ? all : all.and(declared);
  }
}
