package dev.trestle.server.internal.endpoints;

import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableOperation;
import dev.trestle.json.EntityJson;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.Route;
import java.util.Locale;

/**
 * An entity write request turned into a store operation: the same parsing serves single requests
 * and the operations of a change set. {@code prefer} is the honoured Prefer value of an insert, or
 * null.
 */
public record EntityWrite(
    String table, TableOperation operation, Operation permission, String prefer) {

  public static EntityWrite parse(HttpCall call) {
    Route route = call.route();
    String method = call.method();
    if (route instanceof Route.EntitySet set && method.equals("POST")) {
      EntityJson.ParsedEntity parsed = EntityJson.read(call.body());
      if (parsed.partitionKey() == null || parsed.rowKey() == null) {
        throw new TableException(
            TableErrorCode.PROPERTIES_NEED_VALUE,
            "The values are not specified for all properties in the entity.");
      }
      TableEntity entity =
          TableEntity.builder(parsed.partitionKey(), parsed.rowKey())
              .putAll(parsed.properties())
              .build();
      return new EntityWrite(
          set.tableName(), TableOperation.insert(entity), Operation.INSERT_ENTITY, prefer(call));
    }
    if (!(route instanceof Route.EntityResource target)) {
      throw new TableException(
          TableErrorCode.METHOD_NOT_ALLOWED,
          "The requested method is not allowed on the specified resource.");
    }
    String table = target.tableName();
    return switch (method) {
      case "PUT", "MERGE", "PATCH" -> {
        String ifMatch = Preconditions.ifMatch(call);
        EntityJson.ParsedEntity parsed = EntityJson.read(call.body());
        // the URL names the entity; keys repeated in the body are not used
        TableEntity entity =
            TableEntity.builder(target.partitionKey(), target.rowKey())
                .putAll(parsed.properties())
                .build();
        boolean replace = method.equals("PUT");
        if (ifMatch == null) {
          yield replace
              ? new EntityWrite(
                  table,
                  TableOperation.upsertReplace(entity),
                  Operation.INSERT_OR_REPLACE_ENTITY,
                  null)
              : new EntityWrite(
                  table,
                  TableOperation.upsertMerge(entity),
                  Operation.INSERT_OR_MERGE_ENTITY,
                  null);
        }
        yield replace
            ? new EntityWrite(
                table, TableOperation.update(entity, ifMatch), Operation.UPDATE_ENTITY, null)
            : new EntityWrite(
                table, TableOperation.merge(entity, ifMatch), Operation.MERGE_ENTITY, null);
      }
      case "DELETE" -> {
        String ifMatch = Preconditions.ifMatch(call);
        if (ifMatch == null) {
          throw new TableException(
              TableErrorCode.MISSING_REQUIRED_HEADER,
              "An HTTP header that's mandatory for this request is not specified.");
        }
        yield new EntityWrite(
            table,
            TableOperation.delete(target.partitionKey(), target.rowKey(), ifMatch),
            Operation.DELETE_ENTITY,
            null);
      }
      default ->
          throw new TableException(
              TableErrorCode.METHOD_NOT_ALLOWED,
              "The requested method is not allowed on the specified resource.");
    };
  }

  /**
   * The Prefer value honoured on inserts: return-content or return-no-content; others are ignored.
   */
  private static String prefer(HttpCall call) {
    String prefer = call.header("Prefer");
    if (prefer == null) {
      return null;
    }
    String lower = prefer.trim().toLowerCase(Locale.ROOT);
    return lower.equals("return-no-content") || lower.equals("return-content") ? lower : null;
  }

  public String partitionKey() {
    return operation.entity().partitionKey();
  }

  public String rowKey() {
    return operation.entity().rowKey();
  }
}
