package dev.trestle.cli.ops;

import dev.trestle.TableQuery;
import dev.trestle.TableService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Whether the database answers: lists one table, the cheapest call that reaches it through the pool. */
public final class HealthCheck {
  private static final Logger log = LoggerFactory.getLogger(HealthCheck.class);

  private final TableService tableService;

  public HealthCheck(TableService tableService) {
    this.tableService = tableService;
  }

  /** The outcome; {@code problem} names the failure's type only, so no connection detail leaks. */
  public record Result(boolean up, String problem) {
    public String toJson() {
      return up
          ? "{\"status\":\"UP\",\"database\":\"UP\"}"
          : "{\"status\":\"DOWN\",\"database\":\"DOWN\",\"error\":\"" + problem + "\"}";
    }
  }

  public Result check() {
    try {
      tableService.queryTables(new TableQuery(null, 1, null));
      return new Result(true, null);
    } catch (RuntimeException e) {
      log.warn("Health check failed: {}", e.toString());
      return new Result(false, e.getClass().getSimpleName());
    }
  }
}
