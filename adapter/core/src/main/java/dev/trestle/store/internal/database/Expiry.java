package dev.trestle.store.internal.database;

import static dev.trestle.store.internal.database.Schema.TABLES;
import static dev.trestle.store.internal.database.Schema.TABLE_ID;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.PropertyValue;
import dev.trestle.TimeToLive;
import dev.trestle.filter.FilterExpression.ComparisonOperator;
import dev.trestle.store.internal.codec.PropertyCodec;
import dev.trestle.store.internal.codec.StoredType;
import dev.trestle.store.internal.codec.Ticks;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * The one home of the rule of time to live (see {@link TimeToLive}): whether one stored version of
 * an entity has expired at a given time, as a SQL condition for queries and in Java for rows read
 * one at a time. A table without TTL gets no condition at all, so its reads are unchanged.
 *
 * @param enabled the table's {@code ttl_enabled}
 * @param defaultSeconds the table's {@code default_ttl}, null for none
 */
public record Expiry(boolean enabled, Long defaultSeconds) {
  /** A table whose entities never expire. */
  public static final Expiry NEVER = new Expiry(false, null);

  private static final Set<StoredType> DATE_TIME = Set.of(StoredType.DATE_TIME);
  private static final List<String> EXPIRES = List.of(TimeToLive.EXPIRES_PROPERTY);

  /**
   * The table's setting as it is now ({@link #NEVER} when the table is gone); {@code locked} keeps
   * its catalog row locked to the end of the transaction, so that no change of it commits before.
   */
  public static Expiry current(DSLContext sql, Dialect dialect, long tableId, boolean locked) {
    var select =
        sql.select(Schema.TTL_ENABLED, Schema.DEFAULT_TTL).from(TABLES).where(TABLE_ID.eq(tableId));
    Record2<Boolean, Long> row =
        locked ? dialect.lockedAgainstUpdates(select).fetchOne() : select.fetchOne();
    return row == null ? NEVER : of(row.value1(), row.value2());
  }

  /** From the catalog row's two columns (a null {@code enabled} is a table without TTL). */
  public static Expiry of(Boolean enabled, Long defaultSeconds) {
    return Boolean.TRUE.equals(enabled) ? new Expiry(true, defaultSeconds) : NEVER;
  }

  public static Expiry of(TimeToLive setting) {
    return setting.enabled()
        ? new Expiry(true, setting.defaultTtl() == null ? null : setting.defaultTtl().toSeconds())
        : NEVER;
  }

  public TimeToLive setting() {
    return !enabled
        ? TimeToLive.OFF
        : defaultSeconds == null
            ? TimeToLive.entitiesOnly()
            : TimeToLive.of(Duration.ofSeconds(defaultSeconds));
  }

  /**
   * The entities alive at {@code now} (ticks): null when the table has no TTL, so that a query of
   * such a table carries no extra condition.
   */
  public Condition alive(Dialect dialect, long now) {
    if (!enabled) {
      return null;
    }
    PropertyValue at = PropertyValue.of(Ticks.toInstant(now));
    String name = TimeToLive.EXPIRES_PROPERTY;
    Condition ownExpiryPassed = dialect.compareProperty(name, DATE_TIME, ComparisonOperator.LE, at);
    if (defaultSeconds == null) {
      return DSL.not(ownExpiryPassed);
    }
    // Without an expiry of its own (or with a later one) an entity lives defaultSeconds after its
    // version.
    Condition ownExpiryLater = dialect.compareProperty(name, DATE_TIME, ComparisonOperator.GT, at);
    return DSL.not(ownExpiryPassed)
        .and(ownExpiryLater.or(TICKS.gt(now - defaultSeconds * Ticks.PER_SECOND)));
  }

  /** Whether the stored version ({@code ticks}, {@code document}) has expired at {@code now}. */
  public boolean expired(PropertyCodec codec, long ticks, String document, long now) {
    if (!enabled) {
      return false;
    }
    PropertyValue own = codec.decode(document, EXPIRES).get(TimeToLive.EXPIRES_PROPERTY);
    if (own instanceof PropertyValue.DateTimeValue expires) {
      return Ticks.of(expires.value()) <= now;
    }
    return defaultSeconds != null && ticks <= now - defaultSeconds * Ticks.PER_SECOND;
  }
}
