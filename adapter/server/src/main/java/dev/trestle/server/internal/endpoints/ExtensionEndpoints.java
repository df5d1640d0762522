package dev.trestle.server.internal.endpoints;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import dev.trestle.Ordering;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableExtensions;
import dev.trestle.json.MetadataLevel;
import dev.trestle.json.internal.EntityRowPage;
import dev.trestle.server.auth.internal.KeyRange;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.json.ODataJsonWriter;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.Route;
import java.util.List;

/**
 * Trestle's extensions over HTTP, in forms no Azure SDK sends: a {@code /$count} segment and {@code
 * trestle-} query options. Each is authorized as the standard operation it resembles (a count or a
 * descending query as a query, with a SAS's key range applied; an existence check as a point read;
 * a bulk delete as a delete), and answers {@code NotImplemented} when the service's extensions are
 * switched off.
 */
public final class ExtensionEndpoints {
  /** The query option that orders a query's entities: {@code trestle-orderby=RowKey desc}. */
  public static final String ORDER_BY = "trestle-orderby";

  /** The EDM type of the values a {@link #ORDER_BY} of a property orders. */
  static final String ORDER_BY_TYPE = "trestle-orderby-type";

  /**
   * The query option of a bulk delete on an entity set: {@code all}, {@code partition}, {@code
   * where}.
   */
  public static final String DELETE = "trestle-delete";

  /** The partition a {@code trestle-delete=partition} deletes. */
  static final String PARTITION = "trestle-partition";

  private ExtensionEndpoints() {}

  /** {@code GET /t()/$count}: the matches of {@code $filter}; {@code /t(keys)/$count}: 0 or 1. */
  public static ApiResponse count(HttpCall call, CallContext ctx, Route.EntityCount target) {
    String table = target.tableName();
    long count;
    if (target.rowKey() != null) {
      ctx.grant().authorize(Operation.GET_ENTITY, table);
      ctx.grant()
          .authorizeEntity(Operation.GET_ENTITY, table, target.partitionKey(), target.rowKey());
      count = extensions(ctx, table).exists(target.partitionKey(), target.rowKey()) ? 1 : 0;
    } else {
      ctx.grant().authorize(Operation.QUERY_ENTITIES, table);
      EntityQuery query =
          new EntityQuery(Preconditions.filter(call), null, null, null, grantedRange(ctx));
      count = extensions(ctx, table).count(query);
    }
    return ApiResponse.status(200).body("text/plain;charset=utf-8", Long.toString(count));
  }

  /**
   * {@code GET /t()?trestle-orderby=RowKey desc}: a page in descending key order; {@code
   * trestle-orderby=Price desc&trestle-orderby-type=Edm.Int32}: a page ordered by a property (see
   * {@link OrderByOption}). Continuation headers resume only with the same options.
   */
  public static ApiResponse queryOrdered(HttpCall call, CallContext ctx, String table) {
    ctx.grant().authorize(Operation.QUERY_ENTITIES, table);
    Ordering ordering = OrderByOption.parse(call.query(ORDER_BY), call.query(ORDER_BY_TYPE));
    String nextPartitionKey = call.query("NextPartitionKey");
    EntityQuery.Continuation continuation =
        nextPartitionKey == null
            ? null
            : new EntityQuery.Continuation(nextPartitionKey, call.query("NextRowKey"));
    List<String> select = Preconditions.select(call);
    EntityQuery query =
        Preconditions.query(
            () ->
                new EntityQuery(
                    Preconditions.filter(call),
                    select,
                    Preconditions.top(call),
                    continuation,
                    grantedRange(ctx)));
    TableExtensions extensions = extensions(ctx, table);
    EntityPage page =
        ordering == null
            ? extensions.queryDescending(query)
            : extensions.queryOrderedBy(query, ordering);
    MetadataLevel level = call.metadataLevel();
    ApiResponse response =
        ApiResponse.status(200)
            .body(
                level.contentType(),
                new ODataJsonWriter(level, call.baseUrl(), call.account())
                    .page(table, EntityRowPage.of(page).entities(), select));
    page.next()
        .ifPresent(
            c -> {
              response.header("x-ms-continuation-NextPartitionKey", c.nextPartitionKey());
              response.header("x-ms-continuation-NextRowKey", c.nextRowKey());
            });
    return response;
  }

  /**
   * {@code DELETE /t()?trestle-delete=all|partition|where}: truncates the table, deletes the
   * partition named by {@code trestle-partition}, or the matches of {@code $filter} (a transaction
   * per partition). Under a SAS with a key range only the entities inside are deleted.
   */
  public static ApiResponse delete(HttpCall call, CallContext ctx, String table) {
    ctx.grant().authorize(Operation.DELETE_ENTITY, table);
    TableExtensions extensions = extensions(ctx, table);
    EntityQuery.KeyRange range = grantedRange(ctx);
    String kind = call.query(DELETE);
    long deleted =
        switch (kind) {
          case "all" ->
              range == null
                  ? extensions.truncate()
                  : extensions.deleteWhere(
                      new EntityQuery(null, null, null, null, range),
                      TableExtensions.DeleteProgress.NONE);
          case "partition" -> {
            String partitionKey = call.query(PARTITION);
            if (partitionKey == null) {
              throw new TableException(
                  TableErrorCode.INVALID_INPUT,
                  "trestle-delete=partition needs the partition's key in query parameter '"
                      + PARTITION
                      + "'.");
            }
            yield range == null
                ? extensions.deletePartition(partitionKey)
                : extensions.deleteWhere(
                    new EntityQuery(
                        "PartitionKey eq '" + partitionKey.replace("'", "''") + "'",
                        null,
                        null,
                        null,
                        range),
                    TableExtensions.DeleteProgress.NONE);
          }
          case "where" -> {
            String filter = Preconditions.filter(call);
            if (filter == null) {
              throw new TableException(
                  TableErrorCode.INVALID_INPUT,
                  "trestle-delete=where needs a $filter; trestle-delete=all deletes every entity.");
            }
            yield extensions.deleteWhere(
                new EntityQuery(filter, null, null, null, range),
                TableExtensions.DeleteProgress.NONE);
          }
          default ->
              throw new TableException(
                  TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                  "The value of query parameter '"
                      + DELETE
                      + "' must be 'all', 'partition' or 'where'.");
        };
    return ApiResponse.status(200)
        .header("trestle-deleted", Long.toString(deleted))
        .body("application/json;charset=utf-8", "{\"deleted\":" + deleted + "}");
  }

  private static TableExtensions extensions(CallContext ctx, String table) {
    return ctx.tables().tableClient(table).extensions();
  }

  private static EntityQuery.KeyRange grantedRange(CallContext ctx) {
    return ctx.grant().keyRange().map(KeyRange::forQuery).orElse(null);
  }
}
