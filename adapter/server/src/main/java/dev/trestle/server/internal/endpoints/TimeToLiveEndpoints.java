package dev.trestle.server.internal.endpoints;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableExtensions;
import dev.trestle.TimeToLive;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.routing.HttpCall;
import java.time.Duration;

/**
 * A table's time to live over HTTP, a Trestle extension: {@code GET /t?trestle-ttl} answers the
 * setting as JSON, {@code PUT /t?trestle-ttl=SECONDS|entities|off} sets it. Authorized as the
 * table's access policies are (a table setting: the account's key, never a SAS), and {@code
 * NotImplemented} when the service's extensions are off.
 */
public final class TimeToLiveEndpoints {
  /** The query option that addresses the table's time to live. */
  public static final String TTL = "trestle-ttl";

  private TimeToLiveEndpoints() {}

  public static ApiResponse handle(HttpCall call, CallContext ctx, String table) {
    return switch (call.method()) {
      case "GET" -> {
        ctx.grant().authorize(Operation.GET_TABLE_ACL, table);
        yield ApiResponse.status(200)
            .body("application/json;charset=utf-8", json(extensions(ctx, table).timeToLive()));
      }
      case "PUT" -> {
        ctx.grant().authorize(Operation.SET_TABLE_ACL, table);
        TimeToLive setting = parse(call.query(TTL));
        extensions(ctx, table).timeToLive(setting);
        yield ApiResponse.status(204);
      }
      default -> throw HttpCall.methodNotAllowed();
    };
  }

  /** {@code {"enabled":true,"defaultTtl":600}}, the default in seconds or null. */
  static String json(TimeToLive setting) {
    return "{\"enabled\":"
        + setting.enabled()
        + ",\"defaultTtl\":"
        + (setting.defaultTtl() == null ? "null" : setting.defaultTtl().toSeconds())
        + "}";
  }

  /**
   * {@code off}, {@code entities} (only entities with their own expiry) or a default in seconds.
   */
  static TimeToLive parse(String value) {
    String text = value == null ? "" : value.trim();
    if (text.equals("off")) {
      return TimeToLive.OFF;
    }
    if (text.equals("entities")) {
      return TimeToLive.entitiesOnly();
    }
    try {
      long seconds = Long.parseLong(text);
      if (seconds > 0) {
        return TimeToLive.of(Duration.ofSeconds(seconds));
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new TableException(
        TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
        "The value of query parameter '"
            + TTL
            + "' must be a positive number of seconds, 'entities' or 'off'.");
  }

  private static TableExtensions extensions(CallContext ctx, String table) {
    return ctx.tables().tableClient(table).extensions();
  }
}
