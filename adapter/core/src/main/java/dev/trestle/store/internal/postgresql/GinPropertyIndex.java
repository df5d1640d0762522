package dev.trestle.store.internal.postgresql;

import dev.trestle.PropertyValue;
import dev.trestle.filter.FilterExpression;
import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.database.Dialect;
import dev.trestle.store.internal.database.PropertyIndex;
import dev.trestle.store.internal.filter.ExactEqualities;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's optional GIN index on the entity properties ({@code
 * sql/postgresql/property-index.sql}): whether it exists, and the containment test through which it
 * serves a filter's equalities. Without the index that test only adds work to every row, so it is
 * emitted only while the index exists. The index is looked up on first use and again at most once
 * per {@code recheck}, so one created or dropped while the server runs is noticed without a
 * restart. Either way the answers are the same: the test is a necessary condition only.
 */
final class GinPropertyIndex implements PropertyIndex {
  private static final Logger LOG = LoggerFactory.getLogger(GinPropertyIndex.class);
  static final Duration RECHECK = Duration.ofMinutes(1);

  // A valid, non-partial GIN index whose first column is properties, with an operator class that
  // has @>.
  private static final String PROBE =
      """
      select exists (
        select 1
        from pg_index i
        join pg_class index_relation on index_relation.oid = i.indexrelid
        join pg_am access_method on access_method.oid = index_relation.relam
        join pg_opclass operator_class on operator_class.oid = i.indclass[0]
        join pg_attribute first_column on first_column.attrelid = i.indrelid and first_column.attnum = i.indkey[0]
        where i.indrelid = to_regclass('trestle_entity')
          and access_method.amname = 'gin'
          and operator_class.opcname in ('jsonb_path_ops', 'jsonb_ops')
          and operator_class.opcnamespace = 'pg_catalog'::regnamespace
          and first_column.attname = 'properties'
          and i.indisvalid
          and i.indpred is null)""";

  private final DSLContext sql;
  private final Dialect dialect;
  private final PropertyCodec codec;
  private final long recheckNanos;
  private final AtomicLong nextProbe = new AtomicLong(System.nanoTime());
  private volatile boolean present;

  GinPropertyIndex(DSLContext sql, Dialect dialect, PropertyCodec codec, Duration recheck) {
    this.sql = sql;
    this.dialect = dialect;
    this.codec = codec;
    this.recheckNanos = recheck.toNanos();
  }

  /**
   * A condition every entity the filter matches satisfies, which the index can serve: its stored
   * properties contain the values of the filter's top-level equalities ({@link ExactEqualities}).
   * Null without the index or without such equalities.
   */
  @Override
  public Condition candidates(FilterExpression filter) {
    if (filter == null) {
      return null;
    }
    Map<String, List<PropertyValue>> equalities = ExactEqualities.of(filter);
    if (equalities.isEmpty() || !present()) {
      return null;
    }
    return DSL.condition(
        "{0} @> {1}",
        dialect.propertiesColumn(), dialect.propertiesValue(codec.encodeContained(equalities)));
  }

  /**
   * Whether the index exists, as last looked up (again when the last look is older than the
   * recheck).
   */
  @Override
  public boolean present() {
    long now = System.nanoTime();
    long due = nextProbe.get();
    if (now - due >= 0 && nextProbe.compareAndSet(due, now + recheckNanos)) {
      boolean found = probe();
      if (found != present) {
        LOG.info(
            found
                ? "Found the GIN index on trestle_entity(properties): equality filters on properties use it"
                : "The GIN index on trestle_entity(properties) is gone: filters scan their key range again");
      }
      present = found;
    }
    return present;
  }

  private boolean probe() {
    try {
      return Boolean.TRUE.equals(sql.fetchValue(PROBE));
    } catch (RuntimeException e) {
      // The index only speeds queries up: without an answer, run them without it and look again
      // later.
      LOG.warn(
          "Cannot tell whether trestle_entity(properties) has a GIN index ({}); filters run without it",
          e.getMessage());
      return false;
    }
  }
}
