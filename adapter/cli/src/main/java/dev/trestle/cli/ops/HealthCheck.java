package dev.trestle.cli.ops;

import dev.trestle.TableQuery;
import dev.trestle.TableService;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the database answers: lists one table, the cheapest call that reaches it through the
 * pool. The answer comes within {@link #TIMEOUT} whatever the database does (the pool alone would
 * wait its whole connection timeout): the query runs on a thread of its own, and a query still
 * running when the next check comes is waited for rather than started again, so a database that
 * hangs holds one thread however often {@code /health} is asked.
 */
public final class HealthCheck {
  private static final Logger log = LoggerFactory.getLogger(HealthCheck.class);

  /**
   * Under the second a load balancer's probe typically allows, with room for the HTTP round trip.
   */
  public static final Duration TIMEOUT = Duration.ofMillis(700);

  private final TableService tableService;
  private final BuildInfo build;
  private final AtomicReference<FutureTask<Result>> running = new AtomicReference<>();

  public HealthCheck(TableService tableService) {
    this(tableService, null);
  }

  /** {@code build}, when given, is reported in every answer. */
  public HealthCheck(TableService tableService, BuildInfo build) {
    this.tableService = tableService;
    this.build = build;
  }

  /**
   * The outcome; {@code problem} names the failure's type only, so no connection detail leaks.
   * {@code build} may be null.
   */
  public record Result(boolean up, String problem, BuildInfo build) {
    public Result(boolean up, String problem) {
      this(up, problem, null);
    }

    public String toJson() {
      String state =
          up
              ? "\"status\":\"UP\",\"database\":\"UP\""
              : "\"status\":\"DOWN\",\"database\":\"DOWN\",\"error\":\"" + problem + "\"";
      // version and kind are Maven's and the JDBC driver's words: letters, digits, dots, dashes
      return build == null
          ? "{" + state + "}"
          : "{"
              + state
              + ",\"databaseKind\":\""
              + build.database()
              + "\",\"version\":\""
              + build.version()
              + "\"}";
    }
  }

  /**
   * Runs the check once and waits for it, however long it takes: the first query of a fresh process
   * (pool, jOOQ, JIT all cold) can take longer than {@link #TIMEOUT}, and a server is not ready
   * until it answers.
   */
  public void warmUp() {
    try {
      query().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // the database's state is what later checks report
    }
  }

  public Result check() {
    Result result = checkDatabase();
    return new Result(result.up(), result.problem(), build);
  }

  private Result checkDatabase() {
    try {
      return query().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      log.warn("Health check failed: the database did not answer within {} ms", TIMEOUT.toMillis());
      return new Result(false, "TimeoutException");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, "InterruptedException");
    } catch (ExecutionException e) {
      return failed(e.getCause());
    }
  }

  /** The query in flight, or a new one when none is. */
  private FutureTask<Result> query() {
    while (true) {
      FutureTask<Result> current = running.get();
      if (current != null && !current.isDone()) {
        return current;
      }
      FutureTask<Result> fresh = new FutureTask<>(this::listOneTable);
      if (running.compareAndSet(current, fresh)) {
        Thread.ofVirtual().name("trestle-health").start(fresh);
        return fresh;
      }
    }
  }

  private Result listOneTable() {
    try {
      tableService.queryTables(new TableQuery(null, 1, null));
      return new Result(true, null);
    } catch (RuntimeException e) {
      return failed(e);
    }
  }

  private static Result failed(Throwable e) {
    log.warn("Health check failed: {}", e.toString());
    return new Result(false, e.getClass().getSimpleName());
  }
}
