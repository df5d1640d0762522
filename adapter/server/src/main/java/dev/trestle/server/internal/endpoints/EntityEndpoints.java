package dev.trestle.server.internal.endpoints;

import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.json.MetadataLevel;
import dev.trestle.json.internal.EntityRow;
import dev.trestle.json.internal.EntityRowPage;
import dev.trestle.json.internal.RowQueries;
import dev.trestle.json.internal.RowReads;
import dev.trestle.server.auth.internal.KeyRange;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.json.ODataJsonWriter;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.Route;
import java.util.List;
import java.util.Optional;

/** Query, point read and the writes of single entities. */
public final class EntityEndpoints {
  private EntityEndpoints() {}

  public static ApiResponse query(HttpCall call, CallContext ctx, String table) {
    ctx.grant().authorize(Operation.QUERY_ENTITIES, table);
    String nextPartitionKey = call.query("NextPartitionKey");
    EntityQuery.Continuation continuation =
        nextPartitionKey == null
            ? null
            : new EntityQuery.Continuation(nextPartitionKey, call.query("NextRowKey"));
    List<String> select = Preconditions.select(call);
    // a table SAS with a key range silently restricts what a query returns: the store reads only
    // inside it
    EntityQuery.KeyRange range = ctx.grant().keyRange().map(KeyRange::forQuery).orElse(null);
    EntityQuery query =
        Preconditions.query(
            () ->
                new EntityQuery(
                    Preconditions.filter(call),
                    select,
                    Preconditions.top(call),
                    continuation,
                    range));
    TableClient client = ctx.tables().tableClient(table);
    // rows straight from the store where it can hand them out, decoded entities from any other
    EntityRowPage page =
        client instanceof RowQueries rows
            ? rows.queryRows(query)
            : EntityRowPage.of(client.query(query));
    Optional<EntityQuery.Continuation> next = page.next();
    MetadataLevel level = call.metadataLevel();
    ApiResponse response =
        ApiResponse.status(200)
            .body(level.contentType(), writer(call, level).page(table, page.entities(), select));
    next.ifPresent(
        c -> {
          response.header("x-ms-continuation-NextPartitionKey", c.nextPartitionKey());
          if (c.nextRowKey() != null && !c.nextRowKey().isEmpty()) {
            response.header("x-ms-continuation-NextRowKey", c.nextRowKey());
          }
        });
    return response;
  }

  public static ApiResponse get(HttpCall call, CallContext ctx, Route.EntityResource target) {
    ctx.grant().authorize(Operation.GET_ENTITY, target.tableName());
    ctx.grant()
        .authorizeEntity(
            Operation.GET_ENTITY, target.tableName(), target.partitionKey(), target.rowKey());
    List<String> select = Preconditions.select(call);
    TableClient client = ctx.tables().tableClient(target.tableName());
    // the stored row written straight to the response where the store hands one out
    EntityRow entity =
        client instanceof RowReads rows
            ? rows.getRow(target.partitionKey(), target.rowKey(), select)
            : EntityRow.of(client.get(target.partitionKey(), target.rowKey(), select));
    MetadataLevel level = call.metadataLevel();
    return ApiResponse.status(200)
        .header("ETag", entity.etag())
        .body(level.contentType(), writer(call, level).entity(target.tableName(), entity, select));
  }

  public static ApiResponse write(HttpCall call, CallContext ctx) {
    EntityWrite write = EntityWrite.parse(call);
    authorize(ctx, write);
    TableClient client = ctx.tables().tableClient(write.table());
    TableOperation op = write.operation();
    TableEntity stored =
        switch (op.kind()) {
          case INSERT -> client.insert(op.entity());
          case UPDATE -> client.update(op.entity(), op.ifMatch());
          case MERGE -> client.merge(op.entity(), op.ifMatch());
          case UPSERT_REPLACE -> client.upsertReplace(op.entity());
          case UPSERT_MERGE -> client.upsertMerge(op.entity());
          case DELETE -> {
            client.delete(write.partitionKey(), write.rowKey(), op.ifMatch());
            yield null;
          }
        };
    return response(call, write, stored);
  }

  public static void authorize(CallContext ctx, EntityWrite write) {
    ctx.grant().authorize(write.permission(), write.table());
    ctx.grant()
        .authorizeEntity(write.permission(), write.table(), write.partitionKey(), write.rowKey());
  }

  /** The response of a successful write, as a single request or as a change-set part. */
  public static ApiResponse response(HttpCall call, EntityWrite write, TableEntity stored) {
    if (write.operation().kind() == TableOperation.Kind.DELETE) {
      return ApiResponse.status(204);
    }
    if (write.operation().kind() != TableOperation.Kind.INSERT) {
      return ApiResponse.status(204).header("ETag", stored.etag());
    }
    String location =
        ODataJsonWriter.entityUrl(
            call.baseUrl(), write.table(), stored.partitionKey(), stored.rowKey());
    if ("return-no-content".equals(write.prefer())) {
      return ApiResponse.status(204)
          .header("ETag", stored.etag())
          .header("Location", location)
          .header("DataServiceId", location)
          .header("Preference-Applied", "return-no-content");
    }
    MetadataLevel level = call.metadataLevel();
    return ApiResponse.status(201)
        .header("ETag", stored.etag())
        .header("Location", location)
        .header("Preference-Applied", write.prefer())
        .body(level.contentType(), writer(call, level).entity(write.table(), stored, null));
  }

  private static ODataJsonWriter writer(HttpCall call, MetadataLevel level) {
    return new ODataJsonWriter(level, call.baseUrl(), call.account());
  }
}
