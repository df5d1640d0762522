package dev.trestle.server.internal.batch;

import dev.trestle.RelaxedTransactions;
import dev.trestle.ServiceExtensions;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.TableWrite;
import dev.trestle.TransactionFailedException;
import dev.trestle.model.TableLimits;
import dev.trestle.server.internal.endpoints.CallContext;
import dev.trestle.server.internal.endpoints.EntityEndpoints;
import dev.trestle.server.internal.endpoints.EntityWrite;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /$batch?trestle-transaction=relaxed}: a change set run as a relaxed transaction
 * ({@link ServiceExtensions#submitTransaction}), over any partitions and tables of the account and
 * beyond Azure's 100 operations and 4 MiB, within the operator's bounds. The body and the answer
 * are a standard batch's, a failure too (202, one part naming the failing operation's index); no
 * Azure SDK sends the query option, so a standard {@code $batch} never comes here.
 */
public final class RelaxedBatch {
  /** The query option that asks for a relaxed transaction; its one value is {@code relaxed}. */
  static final String OPTION = "trestle-transaction";

  private RelaxedBatch() {}

  /**
   * The most bytes the body of this request may hold: the relaxed bound for a relaxed batch where
   * the operator enabled them, else the standard one (so that such a request is refused as any).
   */
  public static int bodyLimit(Route route, Map<String, List<String>> query, TableService service) {
    if (!(route instanceof Route.Batch) || !query.containsKey(OPTION)) {
      return TableLimits.MAX_BATCH_BYTES;
    }
    try {
      return service
          .extensions()
          .relaxedTransactions()
          .map(RelaxedTransactions::maxRequestBytes)
          .orElse(TableLimits.MAX_BATCH_BYTES);
    } catch (TableException extensionsOff) {
      return TableLimits.MAX_BATCH_BYTES;
    }
  }

  static ApiResponse handle(HttpCall outer, CallContext ctx) {
    if (!"relaxed".equals(outer.query(OPTION))) {
      throw new TableException(
          TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
          "The value of query parameter '" + OPTION + "' must be 'relaxed'.");
    }
    ServiceExtensions extensions = ctx.tables().extensions();
    BatchRequestParser.Batch batch =
        BatchRequestParser.parse(outer.header("Content-Type"), outer.body());
    if (batch.changeSet() == null) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT, "A relaxed transaction is a change set, not a query.");
    }
    BatchResponseWriter writer = new BatchResponseWriter();
    byte[] body = changeSet(outer, ctx, extensions, batch.changeSet(), writer);
    return ApiResponse.status(202).body(writer.contentType(), body);
  }

  private static byte[] changeSet(
      HttpCall outer,
      CallContext ctx,
      ServiceExtensions extensions,
      List<BatchRequestParser.InnerRequest> requests,
      BatchResponseWriter writer) {
    List<HttpCall> calls = new ArrayList<>();
    List<EntityWrite> writes = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      try {
        HttpCall call = BatchEndpoint.innerCall(outer, requests.get(i));
        if (call.method().equals("GET")) {
          throw new TableException(
              TableErrorCode.INVALID_INPUT, "A change set cannot contain a query.");
        }
        EntityWrite write = EntityWrite.parse(call);
        EntityEndpoints.authorize(ctx, write);
        calls.add(call);
        writes.add(write);
      } catch (TableException e) {
        if (e.status() == 403) {
          throw e;
        }
        return BatchEndpoint.failure(writer, ctx, outer, requests, i, e);
      }
    }
    List<TableEntity> stored;
    try {
      stored =
          extensions.submitTransaction(
              writes.stream().map(w -> new TableWrite(w.table(), w.operation())).toList());
    } catch (TransactionFailedException e) {
      if (BatchEndpoint.refusesTheBatch(e.operationError())) {
        throw e.operationError();
      }
      return BatchEndpoint.failure(
          writer, ctx, outer, requests, e.failedIndex(), e.operationError());
    } catch (TableException e) {
      // relaxed transactions switched off: the request, not an operation, is refused
      if (BatchEndpoint.refusesTheBatch(e) || e.errorCode() == TableErrorCode.NOT_IMPLEMENTED) {
        throw e;
      }
      return BatchEndpoint.failure(writer, ctx, outer, requests, 0, e);
    }
    List<ApiResponse> responses = new ArrayList<>();
    for (int i = 0; i < writes.size(); i++) {
      responses.add(EntityEndpoints.response(calls.get(i), writes.get(i), stored.get(i)));
    }
    return writer.changeSet(responses);
  }
}
