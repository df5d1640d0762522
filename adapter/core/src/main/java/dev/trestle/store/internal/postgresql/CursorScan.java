package dev.trestle.store.internal.postgresql;

import static dev.trestle.store.internal.database.Schema.ENTITY_TABLE;
import static dev.trestle.store.internal.database.Schema.PARTITION_KEY;
import static dev.trestle.store.internal.database.Schema.ROW_KEY;
import static dev.trestle.store.internal.database.Schema.TICKS;

import dev.trestle.EntityQuery.Continuation;
import dev.trestle.store.internal.codec.ContinuationTokens;
import dev.trestle.store.internal.codec.StoredEntity;
import dev.trestle.store.internal.database.PageBudget;
import dev.trestle.store.internal.database.PageReader;
import dev.trestle.store.internal.database.PropertyIndex;
import dev.trestle.store.internal.database.QueryLimits;
import dev.trestle.store.internal.database.ScanRequest;
import dev.trestle.store.internal.database.ScanShape;
import dev.trestle.store.internal.database.Schema;
import dev.trestle.store.internal.database.Store;
import dev.trestle.store.internal.database.StoredPage;
import dev.trestle.store.internal.postgresql.RenderedOnce.Rendered;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * PostgreSQL: one page of a query read through one server-side cursor that walks the key range in
 * key order and yields the matches plus a progress marker every few walked rows. One statement sees
 * one snapshot, so a page never shows half of an entity-group transaction however many rows it
 * walks; the page stops reading when it is full, the range ends, or the time budget is spent (at
 * the last match or marker read, so a page with no matches still moves on). A declared cursor is
 * planned for fast start: the planner walks the primary key in order even without statistics, where
 * a plain query with a limit is planned as a read and sort of the whole table while the table has
 * never been analyzed. Where the optional property index exists, the walk skips the rows that lack
 * the values of the filter's top-level equalities ({@link PropertyIndex}): they cannot match, so
 * the markers and continuations stay right, and the planner can read the rest through the index and
 * sort them into key order. A walk that, at the rate of matches it has seen, would read most of the
 * table before its page is full reads the rest of its range as one sort of the first matches
 * instead, in the same snapshot: a sequential read evaluating the filter costs about 0.7 of the
 * ordered walk.
 */
final class CursorScan {
  /** Reads pages through this cursor; a page cut at its time budget is the page. */
  static final PageReader THROUGH_CURSOR =
      (sql, scan, top, resume) -> {
        try {
          return new CursorScan(scan).page(sql, top, resume);
        } catch (PageCut cut) {
          return cut.page;
        }
      };

  /**
   * PostgreSQL JIT-compiles the scan of a large table (about 60 ms per statement, more on a fresh
   * connection, which loads the compiler first) and the filter's expressions ran no faster for it.
   */
  private static final String NO_JIT = "set local jit = off";

  private static final String CURSOR = "trestle_page";

  /**
   * Rows of the first fetch, before any entity's size is known. Rows from PostgreSQL arrive as
   * copies (the driver's bytes, then strings), so few enough that a fetch of the largest entities
   * (up to 1 MiB each) stays near one page's bytes, where 64 held tens of megabytes per request; a
   * page of small entities takes the rest of its rows in one more fetch, sized from the first.
   */
  private static final int FIRST_BATCH = 8;

  private static final int MARKER_EVERY = 128;

  private static final String SORTED_CURSOR = "trestle_page_rest";

  /**
   * Progress markers a walk passes (about 2,000 rows) before it first judges whether to finish as a
   * sort of its rest.
   */
  private static final int SPARSE_AFTER_MARKERS = 16;

  /**
   * What reading a row sequentially costs, as a share of walking to it in key order: a million 1 KB
   * entities, PostgreSQL's CPU, 600 against 840 ms.
   */
  private static final double SEQUENTIAL_READ = 0.7;

  /**
   * What walking an entity row in key order costs PostgreSQL, as a share of reading a candidate row
   * (a heap row reached through the index's bitmap, its filter, and its place in the sort):
   * measured at 100,000 entities of 1 KB, an {@code or} matching 10% with both sides indexed, 200
   * ms per query through its 10,000 candidates (about 50,000 candidate rows over its pages, 3.2 µs
   * each beside the 40 ms of writing the matches out) against 167 ms walking (100,000 rows, 1.3 µs
   * each).
   */
  private static final double WALKED_ROW = 0.4;

  /**
   * The same for a row of the scalar store (a narrow row and its prefilter; the entity row of a row
   * that passes it): 147 to 154 ms walking the store, 1.1 µs a row, in the same measurement.
   */
  private static final double SCALAR_WALKED_ROW = 0.3;

  /**
   * The least time a page's first fetch gets: a walk reaches a match or a progress marker well
   * within it.
   */
  private static final long FIRST_STEP_MILLIS = 1000;

  private final ScanRequest scan;
  private final Store store;
  private final QueryLimits limits;
  private Rendered renderedCandidates;

  CursorScan(ScanRequest scan) {
    this.scan = scan;
    this.store = scan.store();
    this.limits = scan.limits();
  }

  ScanRequest scanRequest() {
    return scan;
  }

  /** Reads one page of at most {@code top} entities after {@code resume} (null: from the start). */
  StoredPage page(int top, Condition resume) {
    return page(store.sql, top, resume);
  }

  /** The same, through the context's connection. */
  StoredPage page(DSLContext context, int top, Condition resume) {
    PageBudget budget = scan.budget();
    return store.inTransaction(
        context,
        sql -> {
          // A walk that may go on as a sort of its range's matches (below) reads both in one
          // snapshot.
          boolean mayFinishSorted = scan.candidates() == null && scan.filtersProperties();
          // Only a page with candidates asks the planner first, so a snapshot's setting still
          // opens the transaction.
          CursorScan walk =
              narrows(sql, top, resume) ? this : new CursorScan(scan.withoutCandidates());
          // No statement of the page may outlast the page's time: a long walk is cut, and what it
          // read is kept. The first step always gets a little time, so that every page makes
          // progress however late it starts. The page's settings go in one round trip.
          timeLimit(
              sql,
              Math.max(budget.remainingMillis(), FIRST_STEP_MILLIS),
              mayFinishSorted
                  ? store.dialect.snapshotStatement().orElseThrow() + "; " + NO_JIT
                  : NO_JIT,
              walk.planSetting());
          String cursor = CURSOR;
          walk.declareWalk(sql, resume);
          List<StoredEntity> entities = new ArrayList<>();
          String lastPartitionKey = null;
          String lastRowKey = null;
          long markers = 0;
          long fetched = 0;
          // rows of a scalar walk that pass its prefilter but do not match: each one walked row
          long passedOnly = 0;
          long judgeAfterMarkers = SPARSE_AFTER_MARKERS;
          while (true) {
            int wanted = (int) Math.min(top + 1L - entities.size(), limits.maxChunk());
            int batch = budget.batch(wanted, FIRST_BATCH);
            if (mayFinishSorted) {
              // While the walk may still go on as a sort, its fetches grow with what it has read:
              // one large fetch of a sparse range would walk all of it first.
              batch = (int) Math.min(batch, Math.max(FIRST_BATCH, fetched));
            }
            // after the first step, each fetch gets the time the page has left
            long fetchMillis = lastPartitionKey != null ? budget.remainingMillis() : -1;
            List<Fetched> rows;
            try {
              rows = fetch(sql, cursor, batch, fetchMillis);
            } catch (RuntimeException e) {
              // the cut of this page's own time limit, as the database reported it (57014) or as
              // the store translated it (ServerBusy over the same cause)
              if (!store.errors.isCancelled(e)) {
                throw e;
              }
              if (lastPartitionKey == null) {
                throw new dev.trestle.TableException(
                    dev.trestle.TableErrorCode.SERVER_BUSY,
                    "The server is busy: the database did not answer within the query's time. Please retry.",
                    e);
              }
              throw new PageCut(
                  page(
                      entities,
                      ContinuationTokens.after(
                          store.dialect.decodeText(lastPartitionKey),
                          store.dialect.decodeText(lastRowKey))));
            }
            fetched += rows.size();
            for (Fetched row : rows) {
              lastPartitionKey = row.partitionKey();
              lastRowKey = row.rowKey();
              if (row.entity() == null && row.passed()) {
                passedOnly++;
              } else if (row.entity() == null) {
                markers++;
              } else {
                if (entities.size() == top) {
                  StoredEntity last = entities.get(entities.size() - 1);
                  return page(
                      entities, ContinuationTokens.after(last.partitionKey(), last.rowKey()));
                }
                budget.read(row.entity().documentLength());
                entities.add(row.entity());
                if (budget.full()) {
                  return page(
                      entities,
                      ContinuationTokens.after(
                          store.dialect.decodeText(lastPartitionKey),
                          store.dialect.decodeText(lastRowKey)));
                }
              }
            }
            if (rows.size() < batch) {
              return new StoredPage(entities, Optional.empty());
            }
            if (budget.timeIsUp()) {
              return page(
                  entities,
                  ContinuationTokens.after(
                      store.dialect.decodeText(lastPartitionKey),
                      store.dialect.decodeText(lastRowKey)));
            }
            // The walk is judged again each time its progress has doubled: the more it has read,
            // the better it knows its rate of matches. Rows that passed a scalar prefilter only
            // are walked rows too.
            long progress = markers + passedOnly / markerEvery();
            if (!mayFinishSorted || progress < judgeAfterMarkers) {
              continue;
            }
            judgeAfterMarkers = 2 * progress;
            if (sortingTheRestCostsLess(
                sql,
                top - entities.size(),
                entities.size(),
                markers,
                passedOnly,
                lastPartitionKey,
                lastRowKey)) {
              // Reading the rest whole and sorting its first matches costs less than walking on.
              // Its rows all match.
              sql.execute("close " + cursor);
              mayFinishSorted = false;

              cursor = SORTED_CURSOR;
              // planned for all its rows, and never as the ordered walk it replaces (the scalar
              // rows' walk is kept from it by their materialized read instead, since the entity
              // rows of their matches are reached by the primary key's index)
              boolean throughScalars =
                  scan.prefilter() != null && passesFew(entities.size() + passedOnly, markers);
              plainly(sql, sortedRestSettings(throughScalars));
              sql.execute(
                  "declare " + cursor + " no scroll cursor for {0}",
                  sortedRest(
                      sql,
                      top + 1 - entities.size(),
                      lastPartitionKey,
                      lastRowKey,
                      throughScalars));
            }
          }
        });
  }

  /**
   * Whether reading the rest of the range as one sort of its matches costs less than walking on.
   * The sort reads the table's rows once, sequentially, at {@link #SEQUENTIAL_READ} of the walk's
   * cost per row; the walk reads on until the page is full: at the rate of matches so far (about
   * {@code markers} × {@link #MARKER_EVERY} rows walked, {@code matched} matches, {@code
   * passedOnly} rows that passed a scalar prefilter only), the rows that hold the {@code wanted}
   * matches, or the rest of the range, by the planner's estimate of its rows, whichever is fewer. A
   * rest shorter than a first chunk is not worth a second statement.
   */
  private boolean sortingTheRestCostsLess(
      DSLContext sql,
      int wanted,
      int matched,
      long markers,
      long passedOnly,
      String partitionKey,
      String rowKey) {
    double walked = (double) markers * markerEvery() + matched + passedOnly;
    Condition table = ENTITY_TABLE.eq(DSL.inline(scan.tableId()));
    double sorting = SEQUENTIAL_READ * tableRows(sql);
    // At the highest rate its matches make likely: (√m + 1)² is about one standard deviation
    // above m matches seen. A few matches tell little, and a walk that would fill its page half way
    // is still walked when its first rows happen to be sparse.
    double likelyMatches = Math.pow(Math.sqrt(matched) + 1, 2);
    double toFillThePage = wanted * walked / likelyMatches;
    if (toFillThePage <= sorting) {
      return false; // the walk fills the page sooner, however long the rest
    }
    // the keys after, spelled out: the planner estimates a row comparison by its first column
    // alone, which puts no rows after a key inside the table's one partition
    double rest =
        estimatedRows(
            sql,
            table
                .and(scan.keyRange())
                .and(
                    PARTITION_KEY
                        .gt(partitionKey)
                        .or(PARTITION_KEY.eq(partitionKey).and(ROW_KEY.gt(rowKey)))));
    return rest >= limits.firstChunk() && Math.min(rest, toFillThePage) > sorting;
  }

  /**
   * The first {@code wanted} matches after the given stored keys, in key order, for the planner to
   * read as it likes (under {@link #sortedRestSettings}): a sort that keeps only the first few
   * holds a page's rows, never all the matches of a rest the walk judged sparser than it is.
   */
  ResultQuery<? extends Record> sortedRest(
      DSLContext sql, int wanted, String partitionKey, String rowKey, boolean throughScalars) {
    if (throughScalars) {
      return sortedScalarRest(sql, wanted, partitionKey, rowKey);
    }
    Field<Object> properties = store.dialect.propertiesColumn();
    return sql.select(PARTITION_KEY, ROW_KEY, TICKS, properties, DSL.inline(true).as("matches"))
        .from(store.dialect.entitiesForReading("trestle_entity"))
        .where(
            ENTITY_TABLE
                .eq(scan.tableId())
                .and(scan.keyRange())
                .and(DSL.row(PARTITION_KEY, ROW_KEY).gt(partitionKey, rowKey))
                .and(scan.filter()))
        .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY)
        .limit(wanted);
  }

  /** The settings {@link #sortedRest} is planned under, in the page's transaction. */
  static String sortedRestSettings(boolean throughScalars) {
    return throughScalars
        ? "set local cursor_tuple_fraction = 1"
        : "set local cursor_tuple_fraction = 1; set local enable_indexscan = off";
  }

  /**
   * Share of the walked rows that passed a scalar prefilter, above which the sorted rest reads the
   * entity rows themselves: each passing row costs a lookup of its entity row by key, several times
   * a row of the entity table's sequential read, so a prefilter that passes many (a filter on
   * values too large to copy, whose markers all pass) would make the rest dearer than today's.
   */
  private static final double SCALAR_REST_MAX_SHARE = 0.05;

  /** Whether the walk's passing rows (matches included) were few enough: see above. */
  private boolean passesFew(long passed, long markers) {
    double walked = (double) markers * markerEvery() + passed;
    return passed <= SCALAR_REST_MAX_SHARE * walked;
  }

  /**
   * {@link #sortedRest} through the scalar store: its narrow rows that pass the prefilter, read
   * whole (a materialized CTE, so never walked in key order), those after the given stored keys,
   * then the entity row of each by its primary key, where the exact filter decides, sorted into key
   * order. The keys are compared after the prefilter, on its few rows: a rest is sorted only when
   * it holds most of the table (sortingTheRestCostsLess), so the read is sequential anyway, and the
   * planner would test the keys of every row first (about 70 ns each; the prefilter's signature
   * rules most rows out for less).
   */
  private ResultQuery<? extends Record> sortedScalarRest(
      DSLContext sql, int wanted, String partitionKey, String rowKey) {
    var passed =
        sql.select(PARTITION_KEY, ROW_KEY)
            .from(Schema.SCALARS.as("s"))
            .where(ENTITY_TABLE.eq(scan.tableId()).and(scan.keyRange()).and(scan.prefilter()));
    return sql.resultQuery(
        "with s as materialized ({0})"
            + " select s.partition_key, s.row_key, m.ticks, m.properties, true as matches from s"
            + " join lateral (select e.ticks, e.properties from trestle_entity e"
            + " where e.table_id = {1} and e.partition_key = s.partition_key"
            + " and e.row_key = s.row_key and {2} offset 0) m on true"
            + " where (s.partition_key, s.row_key) > ({4}, {5})"
            + " order by s.partition_key, s.row_key limit {3}",
        passed,
        DSL.val(scan.tableId()),
        scan.filter(),
        DSL.inline(wanted),
        DSL.val(partitionKey),
        DSL.val(rowKey));
  }

  /**
   * The database cuts the next statements at this time; the connection waits for its answer a
   * little longer. The setting goes in one round trip with {@code before} and {@code after} (each
   * null: none).
   */
  private void timeLimit(DSLContext sql, long millis, String before, String after) {
    StringBuilder statements = new StringBuilder();
    if (before != null) {
      statements.append(before).append("; ");
    }
    statements.append("set local statement_timeout = ").append(millis);
    if (after != null) {
      statements.append("; ").append(after);
    }
    plainly(sql, statements.toString());
    store.allowSilence(sql, millis);
  }

  /**
   * Runs statements without results (settings) in one round trip, as plain JDBC: jOOQ's parsing of
   * plain SQL cost as much as the round trip.
   */
  private void plainly(DSLContext sql, String statements) {
    store.withConnection(
        sql,
        connection -> {
          try (Statement statement = connection.createStatement()) {
            return statement.execute(statements);
          }
        });
  }

  /**
   * The next rows of the cursor, read through plain JDBC: a page reads a thousand rows or more, and
   * jOOQ's record per row (its values converted one by one through the column's binding) cost as
   * much as writing the row to the response.
   */
  private List<Fetched> fetch(DSLContext sql, String cursor, int batch, long millis) {
    String fetch = "fetch forward " + batch + " from " + cursor;
    if (millis >= 0) {
      // the fetch's time limit goes with it, in one round trip
      store.allowSilence(sql, millis);
      fetch = "set local statement_timeout = " + millis + "; " + fetch;
    }
    String statements = fetch;
    return store.withConnection(
        sql,
        connection -> {
          try (Statement statement = connection.createStatement();
              ResultSet rows = lastResult(statement, statements)) {
            List<Fetched> fetched = new ArrayList<>(batch);
            boolean scalarWalk = rows.getMetaData().getColumnCount() > 5;
            while (rows.next()) {
              String partitionKey = rows.getString(1);
              String rowKey = rows.getString(2);
              // a row that does not match (a null filter does not) is a progress marker
              StoredEntity entity =
                  rows.getBoolean(5)
                      ? scan.entityOfUtf8(partitionKey, rowKey, rows.getLong(3), rows.getBytes(4))
                      : null;
              // only a walk of the scalar store says whether a row passed its prefilter
              boolean passed = entity == null && scalarWalk && rows.getBoolean(6);
              fetched.add(new Fetched(partitionKey, rowKey, entity, passed));
            }
            return fetched;
          }
        });
  }

  /** The rows of the last of the statements, which is the only one that yields rows. */
  private static ResultSet lastResult(Statement statement, String statements)
      throws java.sql.SQLException {
    boolean rows = statement.execute(statements);
    while (!rows) {
      if (statement.getUpdateCount() == -1) {
        throw new java.sql.SQLException("no rows from: " + statements);
      }
      rows = statement.getMoreResults();
    }
    return statement.getResultSet();
  }

  /**
   * One walked row: its stored keys, its entity when it matches (null: a progress marker), and
   * whether a row that does not match passed the scan's scalar prefilter (then it is no marker).
   */
  private record Fetched(String partitionKey, String rowKey, StoredEntity entity, boolean passed) {}

  /**
   * A page whose last statement ran out of time: the transaction rolls back, the rows read so far
   * are the page.
   */
  static final class PageCut extends RuntimeException {
    final StoredPage page;

    PageCut(StoredPage page) {
      super("page cut at its time budget", null, false, false);
      this.page = page;
    }
  }

  /**
   * Whether reading this page through the index's candidates beats walking the key range, by the
   * planner's estimates (one EXPLAIN each, no execution). Every page reads all remaining candidates
   * and sorts them, so a query of C candidates costs about C²/2top candidate rows over its pages,
   * where the walk reads each of its N rows once, each for a share of a candidate row's cost
   * ({@link #WALKED_ROW}, {@link #SCALAR_WALKED_ROW}): candidates are used while C²/2top ≤ N·share
   * (and always while they are few). Wide candidate sets, such as an {@code or} with a common
   * value, walk the keys instead.
   */
  boolean narrows(DSLContext sql, int top, Condition resume) {
    if (scan.candidates() == null) {
      return false;
    }
    // The planner keeps statistics of each indexed value over the whole entity table, and would
    // take this table's share of the rows for independent of them: the candidates of all tables
    // are estimated alone, and scaled to the part of this table the page walks.
    // Both estimates that do not depend on the page are remembered for a while (RowEstimates).
    double candidates =
        store.estimates.rows(
            scan.candidatesKey() == null ? null : "candidates " + scan.candidatesKey(),
            () -> {
              Rendered rendered = renderedCandidates(sql);
              return estimatedRows(
                  sql, scan.candidates(), "estimate " + rendered.text(), rendered.binds());
            });
    if (candidates <= 4.0 * top) {
      return true;
    }
    Condition table = ENTITY_TABLE.eq(DSL.inline(scan.tableId()));
    double walked =
        estimatedRows(
            sql, table.and(scan.keyRange()).and(resume == null ? DSL.trueCondition() : resume));
    candidates *= Math.min(1, walked / Math.max(1, tableRows(sql)));
    double share = scan.prefilter() != null ? SCALAR_WALKED_ROW : WALKED_ROW;
    return candidates <= 4.0 * top || candidates * candidates <= 2.0 * top * walked * share;
  }

  /** The planner's estimate of the table's rows, remembered for a while (RowEstimates). */
  private double tableRows(DSLContext sql) {
    return store.estimates.rows(
        "table " + scan.tableId(),
        () -> estimatedRows(sql, ENTITY_TABLE.eq(DSL.inline(scan.tableId()))));
  }

  private double estimatedRows(DSLContext sql, Condition where) {
    return planRows(explain(sql, where).fetchOne(0, String.class));
  }

  /**
   * The same, its EXPLAIN rendered once per {@code shape} (the condition as rendered alone) and
   * bound with {@code binds}, the condition's values, as the walk is ({@link #declareWalk}).
   */
  private double estimatedRows(DSLContext sql, Condition where, String shape, List<Object> binds) {
    String text = RenderedOnce.text(store, sql, shape, binds, () -> explain(sql, where));
    if (text == null) {
      return estimatedRows(sql, where);
    }
    return planRows(
        store.withConnection(
            sql,
            connection -> {
              try (PreparedStatement statement = RenderedOnce.prepared(connection, text, binds);
                  ResultSet plan = statement.executeQuery()) {
                return plan.next() ? plan.getString(1) : null;
              }
            }));
  }

  private ResultQuery<Record> explain(DSLContext sql, Condition where) {
    return sql.resultQuery(
        "explain (format json) {0}",
        sql.selectOne().from(store.dialect.entitiesForReading("trestle_entity")).where(where));
  }

  /** The planner's estimate of the rows of the statement whose plan this is. */
  private static double planRows(String plan) {
    java.util.regex.Matcher rows = PLAN_ROWS.matcher(plan == null ? "" : plan);
    return rows.find() ? Double.parseDouble(rows.group(1)) : Double.MAX_VALUE;
  }

  private static final java.util.regex.Pattern PLAN_ROWS =
      java.util.regex.Pattern.compile("\"Plan Rows\":\\s*([0-9.eE+]+)");

  /**
   * Sets the planner up for this scan's cursor, in the current transaction. A cursor is planned for
   * its first tenth by default, which favours the ordered primary-key walk; a walk through the
   * property index reads and sorts all its rows before the first one, so it is planned for all of
   * them: the index is then chosen wherever it is cheaper in total.
   */
  void planFor(DSLContext sql) {
    String setting = planSetting();
    if (setting != null) {
      sql.execute(setting);
    }
  }

  /**
   * The setting of {@link #planFor}, or null when the scan needs none. A walk of the scalar store
   * is never JIT-compiled: the planner takes its prefilter for unselective (it has no statistics of
   * jsonb expressions) and so its lookups of entity rows for many, and the estimate passes the JIT
   * threshold even at 100,000 entities, where compiling cost about as much as the whole walk
   * (measured: PostgreSQL CPU per query no lower than the entity walk's until this was set).
   */
  private String planSetting() {
    if (scan.candidates() != null) {
      return "set local cursor_tuple_fraction = 1";
    }
    return scan.prefilter() != null ? "set local jit = off" : null;
  }

  /**
   * Declares the page's cursor over {@link #walkQuery}, rendered once per shape of scan ({@link
   * #shape}) with its values bound through plain JDBC: jOOQ's rendering of the walk was a third of
   * an indexed lookup's CPU. The first page of a shape checks that the shape's values are the
   * values jOOQ binds, in the same order, and a shape whose are not is rendered per page.
   */
  private void declareWalk(DSLContext sql, Condition resume) {
    if (scan.prefilter() != null) {
      // a scalar walk is rendered per page: its rows cost far more than its rendering
      sql.execute("declare " + CURSOR + " no scroll cursor for {0}", walkQuery(sql, resume));
      return;
    }
    ScanShape shape = shape(sql, resume);
    boolean throughCandidates = scan.candidates() != null;
    List<Object> binds =
        shape.binds(throughCandidates ? CANDIDATE_WALK_BINDS : KEY_WALK_BINDS, scan.tableId());
    String walk =
        RenderedOnce.text(
            store,
            sql,
            shape.key()
                + " marker "
                + markerEvery()
                // the candidate walk has its table id inline (the key walk binds it)
                + (throughCandidates
                    ? " through candidates of " + scan.tableId()
                    : " in key order"),
            binds,
            () -> walkQuery(sql, resume));
    if (walk == null) {
      sql.execute("declare " + CURSOR + " no scroll cursor for {0}", walkQuery(sql, resume));
      return;
    }
    String declare = "declare " + CURSOR + " no scroll cursor for " + walk;
    store.withConnection(
        sql,
        connection -> {
          try (PreparedStatement statement = RenderedOnce.prepared(connection, declare, binds)) {
            return statement.execute();
          }
        });
  }

  /**
   * The scan's shape: the one its request names (a filter of keys alone, named without rendering),
   * else its conditions rendered by jOOQ with their values as bind markers, which name the walk's
   * text exactly (each part is rendered whole, so whatever of a value decides the SQL shows in its
   * text), and their values as jOOQ binds them. Rendering the conditions alone costs a fraction of
   * rendering the walk around them.
   */
  private ScanShape shape(DSLContext sql, Condition resume) {
    ScanShape given = scan.shape();
    if (given != null && scan.candidates() == null && resume == given.resume()) {
      return given;
    }
    Rendered filter = Rendered.of(sql, scan.filter());
    Rendered keyRange = Rendered.of(sql, scan.keyRange());
    Rendered candidates = renderedCandidates(sql);
    Rendered after = Rendered.of(sql, resume == null ? DSL.noCondition() : resume);
    return new ScanShape(
        "rendered "
            + filter.text()
            + " | "
            + keyRange.text()
            + " | "
            + candidates.text()
            + " | "
            + after.text(),
        filter.binds(),
        keyRange.binds(),
        candidates.binds(),
        resume,
        after.binds());
  }

  /** The candidates rendered alone (none: no condition), once per page. */
  private Rendered renderedCandidates(DSLContext sql) {
    if (renderedCandidates == null) {
      renderedCandidates =
          Rendered.of(sql, scan.candidates() == null ? DSL.noCondition() : scan.candidates());
    }
    return renderedCandidates;
  }

  /** The order of {@link #keyWalk}'s binds (see {@link ScanShape#binds}). */
  private static final String KEY_WALK_BINDS = "ffftkrf";

  /** The order of {@link #candidateWalk}'s binds. */
  private static final String CANDIDATE_WALK_BINDS = "fkcr";

  private int markerEvery() {
    return Math.min(MARKER_EVERY, limits.firstChunk());
  }

  /**
   * The key range in key order: each row's keys and whether it matches, its version and properties
   * only when it does; of the rows that do not match, only every few-th (the progress markers).
   */
  ResultQuery<? extends Record> walkQuery(DSLContext sql, Condition resume) {
    return scan.candidates() == null ? keyWalk(sql, resume) : candidateWalk(sql, resume);
  }

  /**
   * The walk through an index's candidates: the planner may read them in another order and sort
   * them, so the sort carries only their keys, row address and whether they match (computed below
   * it); a match's version and properties are fetched by its address afterwards, in the same
   * statement and snapshot (the fence keeps that a lookup per match, never a join of the table).
   * The table id is inline, which lets the planner use indexes over one table's rows.
   */
  private ResultQuery<? extends Record> candidateWalk(DSLContext sql, Condition resume) {
    Field<Object> rowId = DSL.field(DSL.name("ctid")).as("row_id");
    Table<?> candidates =
        sql.select(PARTITION_KEY, ROW_KEY, rowId, DSL.field(scan.filter()).as("matches"))
            .from(store.dialect.entitiesForReading("trestle_entity"))
            .where(
                ENTITY_TABLE
                    .eq(DSL.inline(scan.tableId()))
                    .and(scan.keyRange())
                    .and(scan.candidates())
                    .and(resume == null ? DSL.trueCondition() : resume))
            // a fence: the filter is evaluated where the row is read, not after a sort
            .offset(DSL.inline(0))
            .asTable("candidate");
    Field<String> partitionKey = candidates.field(PARTITION_KEY.getName(), String.class);
    Field<String> rowKey = candidates.field(ROW_KEY.getName(), String.class);
    var walk =
        sql.select(
                partitionKey,
                rowKey,
                candidates.field("row_id"),
                candidates.field("matches"),
                DSL.rowNumber().over(DSL.orderBy(partitionKey, rowKey)).as("walked"))
            .from(candidates)
            .orderBy(partitionKey, rowKey);
    return sql.resultQuery(
        "select walk.partition_key, walk.row_key, m.ticks, m.properties, walk.matches from ({0}) walk"
            + " left join lateral (select e.ticks, e.properties from trestle_entity e"
            + " where e.ctid = walk.row_id and walk.matches offset 0) m on true"
            + " where walk.matches or walk.walked % {1} = 0",
        walk, DSL.inline(Math.min(MARKER_EVERY, limits.firstChunk())));
  }

  /**
   * The walk of the key range in key order, as one filtered index scan: a row is returned when it
   * matches or is a progress marker, chosen by a hash of its RowKey (about one in {@link
   * #MARKER_EVERY}), which costs a third less than numbering every walked row with a window
   * function. Any walked row is a valid marker: no match before it is skipped.
   */
  private ResultQuery<? extends Record> keyWalk(DSLContext sql, Condition resume) {
    if (scan.prefilter() != null) {
      return scalarWalk(sql, resume);
    }
    Field<Object> properties = store.dialect.propertiesColumn();
    Condition matches = scan.filter();
    Condition marker =
        DSL.condition(
            "mod(hashtext({0}), {1}) = 0",
            ROW_KEY, DSL.inline(Math.min(MARKER_EVERY, limits.firstChunk())));
    return sql.select(
            PARTITION_KEY,
            ROW_KEY,
            DSL.when(matches, TICKS).as(TICKS.getName()),
            DSL.when(matches, properties).as(properties.getName()),
            DSL.field(matches).as("matches"))
        .from(store.dialect.entitiesForReading("trestle_entity"))
        .where(
            ENTITY_TABLE
                .eq(scan.tableId())
                .and(scan.keyRange())
                .and(resume == null ? DSL.trueCondition() : resume)
                .and(matches.or(marker)))
        .orderBy(ENTITY_TABLE, PARTITION_KEY, ROW_KEY);
  }

  /**
   * {@link #keyWalk} through the scalar store: its narrow rows in key order, each a match or a
   * marker only if it passes the prefilter or is a marker row; the entity row is read by its
   * primary key only for a row that passes the prefilter (the lateral subquery's gate), and the row
   * matches when the exact filter holds on it. The conditions of the key range and the resume point
   * are the entity table's, on the scalar row's keys (outside the subquery only the scalar row has
   * keys); the filter is on the entity row (inside it, its columns are nearest).
   */
  private ResultQuery<? extends Record> scalarWalk(DSLContext sql, Condition resume) {
    Condition passes = scan.prefilter();
    Condition marker =
        DSL.condition("mod(hashtext({0}), {1}) = 0", ROW_KEY, DSL.inline(markerEvery()));
    Condition walked =
        ENTITY_TABLE
            .eq(scan.tableId())
            .and(scan.keyRange())
            .and(resume == null ? DSL.trueCondition() : resume)
            .and(passes.or(marker));
    return sql.resultQuery(
        "select s.partition_key, s.row_key, m.ticks, m.properties, m.ticks is not null as matches,"
            + " {1} as passed"
            + " from {0} s left join lateral (select e.ticks, e.properties from trestle_entity e"
            + " where {1} and e.table_id = s.table_id and e.partition_key = s.partition_key"
            + " and e.row_key = s.row_key and {2} offset 0) m on true"
            + " where {3} order by s.table_id, s.partition_key, s.row_key",
        Schema.SCALARS, passes, scan.filter(), walked);
  }

  private static StoredPage page(List<StoredEntity> entities, Continuation continuation) {
    return new StoredPage(entities, continuation);
  }
}
