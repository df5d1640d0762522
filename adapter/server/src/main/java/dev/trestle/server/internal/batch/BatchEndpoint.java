package dev.trestle.server.internal.batch;

import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TransactionFailedException;
import dev.trestle.json.MetadataLevel;
import dev.trestle.model.TableLimits;
import dev.trestle.server.internal.endpoints.CallContext;
import dev.trestle.server.internal.endpoints.EntityEndpoints;
import dev.trestle.server.internal.endpoints.EntityWrite;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.http.ErrorResponses;
import dev.trestle.server.internal.http.PercentCodec;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.ResourcePath;
import dev.trestle.server.internal.routing.Route;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code POST /$batch}: one change set run all-or-nothing through {@code submitTransaction}, or one
 * query. A failing operation is reported as the service does: 202 outside, a single part inside
 * with the failing operation's status and its index in front of the message.
 */
public final class BatchEndpoint {
  private BatchEndpoint() {}

  public static ApiResponse handle(HttpCall outer, CallContext ctx) {
    if (outer.query(RelaxedBatch.OPTION) != null) {
      return RelaxedBatch.handle(outer, ctx);
    }
    BatchRequestParser.Batch batch =
        BatchRequestParser.parse(outer.header("Content-Type"), outer.body());
    BatchResponseWriter writer = new BatchResponseWriter();
    byte[] body =
        batch.query() != null
            ? writer.query(query(outer, ctx, batch.query()))
            : changeSet(outer, ctx, batch.changeSet(), writer);
    return ApiResponse.status(202).body(writer.contentType(), body);
  }

  private static ApiResponse query(
      HttpCall outer, CallContext ctx, BatchRequestParser.InnerRequest request) {
    HttpCall call = innerCall(outer, request);
    try {
      if (call.route() instanceof Route.EntityResource target) {
        return EntityEndpoints.get(call, ctx, target);
      }
      if (call.route() instanceof Route.EntitySet set) {
        return EntityEndpoints.query(call, ctx, set.tableName());
      }
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "A batch query must address entities.");
    } catch (TableException e) {
      if (e.status() == 403 || refusesTheBatch(e)) {
        throw e;
      }
      return ErrorResponses.json(
          e.errorCode(), e.getMessage(), ctx.requestId(), call.metadataLevel(), ctx.clock());
    }
  }

  /**
   * ServerBusy is the service's state, not an operation's failure: the whole batch is answered with
   * it, as a single write is, so that clients retry it (the Azure SDKs retry a 503, never a failed
   * operation).
   */
  static boolean refusesTheBatch(TableException e) {
    return e.errorCode() == TableErrorCode.SERVER_BUSY;
  }

  private static byte[] changeSet(
      HttpCall outer,
      CallContext ctx,
      List<BatchRequestParser.InnerRequest> requests,
      BatchResponseWriter writer) {
    if (requests.size() > TableLimits.MAX_BATCH_OPERATIONS) {
      return failure(
          writer,
          ctx,
          outer,
          requests,
          0,
          new TableException(
              TableErrorCode.INVALID_INPUT,
              "The batch request operation exceeds the maximum "
                  + TableLimits.MAX_BATCH_OPERATIONS
                  + " changes per change set."));
    }
    List<HttpCall> calls = new ArrayList<>();
    List<EntityWrite> writes = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < requests.size(); i++) {
      try {
        HttpCall call = innerCall(outer, requests.get(i));
        if (call.method().equals("GET")) {
          throw new TableException(
              TableErrorCode.INVALID_INPUT, "A change set cannot contain a query.");
        }
        EntityWrite write = EntityWrite.parse(call);
        EntityEndpoints.authorize(ctx, write);
        if (!writes.isEmpty()) {
          EntityWrite first = writes.get(0);
          if (!first.table().equalsIgnoreCase(write.table())) {
            throw new TableException(
                TableErrorCode.INVALID_INPUT,
                "All operations of a change set must address the same table.");
          }
          if (!first.partitionKey().equals(write.partitionKey())) {
            throw new TableException(
                TableErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS,
                "All commands in a batch must operate on same entity group.");
          }
        }
        if (!keys.add(write.rowKey())) {
          throw new TableException(
              TableErrorCode.INVALID_DUPLICATE_ROW,
              "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.");
        }
        calls.add(call);
        writes.add(write);
      } catch (TableException e) {
        if (e.status() == 403) {
          throw e;
        }
        return failure(writer, ctx, outer, requests, i, e);
      }
    }
    if (writes.isEmpty()) {
      return writer.changeSet(List.of());
    }
    List<TableEntity> stored;
    try {
      stored =
          ctx.tables()
              .tableClient(writes.get(0).table())
              .submitTransaction(writes.stream().map(EntityWrite::operation).toList());
    } catch (TransactionFailedException e) {
      if (refusesTheBatch(e.operationError())) {
        throw e.operationError();
      }
      return failure(writer, ctx, outer, requests, e.failedIndex(), e.operationError());
    } catch (TableException e) {
      if (refusesTheBatch(e)) {
        throw e;
      }
      return failure(writer, ctx, outer, requests, 0, e);
    }
    List<ApiResponse> responses = new ArrayList<>();
    for (int i = 0; i < writes.size(); i++) {
      responses.add(EntityEndpoints.response(calls.get(i), writes.get(i), stored.get(i)));
    }
    return writer.changeSet(responses);
  }

  static byte[] failure(
      BatchResponseWriter writer,
      CallContext ctx,
      HttpCall outer,
      List<BatchRequestParser.InnerRequest> requests,
      int index,
      TableException error) {
    String message = indexPrefixed(requests.size(), index, error) + error.getMessage();
    MetadataLevel level =
        MetadataLevel.negotiate(
            null,
            index < requests.size()
                ? requests.get(index).headers().get("Accept")
                : outer.header("Accept"));
    ApiResponse part =
        ErrorResponses.json(
            error.status(),
            error.errorCode().code(),
            ErrorResponses.messageWithTrailer(message, ctx.requestId(), ctx.clock().instant()),
            level);
    part.headers().remove("x-ms-error-code");
    return writer.changeSet(List.of(part));
  }

  /**
   * Azure prefixes the failing index to the message for batches of several operations; for a single
   * operation it was seen without the prefix for 412 and ResourceNotFound and with it for the other
   * errors.
   */
  private static String indexPrefixed(int operations, int index, TableException error) {
    if (operations == 1
        && (error.errorCode() == TableErrorCode.UPDATE_CONDITION_NOT_SATISFIED
            || error.errorCode() == TableErrorCode.RESOURCE_NOT_FOUND)) {
      return "";
    }
    return index + ":";
  }

  static HttpCall innerCall(HttpCall outer, BatchRequestParser.InnerRequest request) {
    String[] pathAndQuery = BatchRequestParser.pathAndQuery(request.target());
    ResourcePath path =
        outer.hostStyle()
            ? ResourcePath.hostStyle(outer.account(), pathAndQuery[0])
            : ResourcePath.parse(pathAndQuery[0]);
    if (!path.account().toLowerCase(Locale.ROOT).equals(outer.account().toLowerCase(Locale.ROOT))) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "An operation of the batch addresses another account than the batch itself.");
    }
    if (path.route() instanceof Route.Batch
        || path.route() instanceof Route.ServiceRoot
        || path.route() instanceof Route.TableCollection
        || path.route() instanceof Route.TableResource
        // the extensions' resources are not entities either: refused alike, never 405
        || path.route() instanceof Route.EntityCount
        || path.route() instanceof Route.ChangeFeed) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "A batch may only contain entity operations.");
    }
    return new HttpCall(
        request.method(),
        path.route(),
        request.headers(),
        PercentCodec.parseQuery(pathAndQuery[1]),
        request.body(),
        outer.baseUrl(),
        outer.account(),
        outer.hostStyle());
  }
}
