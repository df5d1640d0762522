package dev.trestle.server.internal.endpoints;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.ChangeFeed;
import dev.trestle.ChangePage;
import dev.trestle.TableChange;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.json.EntityJson;
import dev.trestle.json.MetadataLevel;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.routing.HttpCall;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * A table's change feed over HTTP, at {@code /t()/$changes}: {@code GET} reads changes after {@code
 * trestle-from} (a long poll of up to {@code trestle-wait} seconds), {@code PUT} enables the feed
 * ({@code trestle-entities=true}, {@code trestle-retention=P7D}), {@code DELETE} disables it.
 * Reading needs the rights of a query of the whole table (a SAS limited to a key range is refused:
 * the feed spans every key); enabling and disabling those of setting the table's ACL.
 */
public final class ChangeFeedEndpoints {
  /** The token to read after; absent: from the oldest change kept. */
  static final String FROM = "trestle-from";

  /** Seconds a read waits for a first change (a long poll), 0 to {@link ChangeFeed#MAX_WAIT}. */
  static final String WAIT = "trestle-wait";

  private static final JsonFactory JSON = new JsonFactory();

  private ChangeFeedEndpoints() {}

  public static ApiResponse handle(HttpCall call, CallContext ctx, String table) {
    return switch (call.method()) {
      case "GET" -> read(call, ctx, table);
      case "PUT" -> {
        ctx.grant().authorize(Operation.SET_TABLE_ACL, table);
        String token =
            feed(ctx, table)
                .enable(
                    "true".equalsIgnoreCase(call.query("trestle-entities")),
                    retention(call.query("trestle-retention")));
        yield ApiResponse.status(200)
            .header("trestle-next", token)
            .body("application/json;charset=utf-8", "{\"next\":\"" + token + "\"}");
      }
      case "DELETE" -> {
        ctx.grant().authorize(Operation.SET_TABLE_ACL, table);
        feed(ctx, table).disable();
        yield ApiResponse.status(204);
      }
      default -> throw HttpCall.methodNotAllowed();
    };
  }

  private static ApiResponse read(HttpCall call, CallContext ctx, String table) {
    ctx.grant().authorize(Operation.QUERY_ENTITIES, table);
    if (ctx.grant().keyRange().isPresent()) {
      throw new TableException(
          TableErrorCode.AUTHORIZATION_FAILURE,
          "A change feed spans every key of its table: a SAS limited to a key range cannot read"
              + " it.");
    }
    Integer top = Preconditions.top(call);
    ChangePage page =
        feed(ctx, table)
            .read(
                call.query(FROM),
                top == null ? ChangeFeed.MAX_PAGE : Math.min(top, ChangeFeed.MAX_PAGE),
                Duration.ofSeconds(seconds(call.query(WAIT))));
    return ApiResponse.status(200)
        .header("trestle-next", page.next())
        .body("application/json;charset=utf-8", json(page));
  }

  private static byte[] json(ChangePage page) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator gen = JSON.createGenerator(out)) {
      gen.writeStartObject();
      gen.writeArrayFieldStart("changes");
      for (TableChange change : page.changes()) {
        gen.writeStartObject();
        gen.writeStringField("position", change.position());
        gen.writeStringField("kind", change.kind().name().toLowerCase(Locale.ROOT));
        gen.writeStringField("PartitionKey", change.partitionKey());
        gen.writeStringField("RowKey", change.rowKey());
        if (change.etag() != null) {
          gen.writeStringField("etag", change.etag());
          gen.writeStringField("Timestamp", change.timestamp().toString());
        }
        gen.writeStringField("changed", change.changed().toString());
        if (change.entity() != null) {
          gen.writeFieldName("entity");
          gen.writeStartObject();
          EntityJson.writeFields(gen, change.entity(), MetadataLevel.MINIMAL, null);
          gen.writeEndObject();
        }
        gen.writeEndObject();
      }
      gen.writeEndArray();
      gen.writeStringField("next", page.next());
      gen.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static long seconds(String wait) {
    if (wait == null) {
      return 0;
    }
    try {
      long seconds = Long.parseLong(wait);
      if (seconds >= 0 && seconds <= ChangeFeed.MAX_WAIT.toSeconds()) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new TableException(
        TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
        "The value of query parameter '"
            + WAIT
            + "' must be whole seconds from 0 to "
            + ChangeFeed.MAX_WAIT.toSeconds()
            + ".");
  }

  private static Duration retention(String text) {
    if (text == null) {
      return ChangeFeed.DEFAULT_RETENTION;
    }
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new TableException(
          TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
          "The value of query parameter 'trestle-retention' must be an ISO-8601 duration such as"
              + " P7D or PT12H.");
    }
  }

  private static ChangeFeed feed(CallContext ctx, String table) {
    return ctx.tables().tableClient(table).extensions().changeFeed();
  }
}
