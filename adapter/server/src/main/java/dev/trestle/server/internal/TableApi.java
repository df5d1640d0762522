package dev.trestle.server.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/** Dispatches a parsed request to the operation its route and verb name. */
final class TableApi {
  private TableApi() {}

  static ApiResponse dispatch(HttpCall call, CallContext ctx, ServicePropertiesCache properties) {
    String method = call.method();
    return switch (call.route()) {
      case Route.ServiceRoot root -> ServiceEndpoints.handle(call, ctx, properties);
      case Route.TableCollection tables -> switch (method) {
        case "GET" -> TableEndpoints.query(call, ctx);
        case "POST" -> TableEndpoints.create(call, ctx);
        default -> throw methodNotAllowed();
      };
      case Route.TableResource table -> switch (method) {
        case "GET" -> TableEndpoints.get(call, ctx, table.tableName());
        case "DELETE" -> TableEndpoints.delete(ctx, table.tableName());
        default -> throw methodNotAllowed();
      };
      case Route.EntitySet set -> {
        if ("acl".equals(call.query("comp"))) {
          yield ServiceEndpoints.acl(call, ctx, set.tableName());
        }
        yield switch (method) {
          case "GET" -> EntityEndpoints.query(call, ctx, set.tableName());
          case "POST" -> EntityEndpoints.write(call, ctx);
          default -> throw methodNotAllowed();
        };
      }
      case Route.EntityResource entity -> switch (method) {
        case "GET" -> EntityEndpoints.get(call, ctx, entity);
        case "PUT", "MERGE", "PATCH", "DELETE" -> EntityEndpoints.write(call, ctx);
        default -> throw methodNotAllowed();
      };
      case Route.Batch batch -> {
        if (!method.equals("POST")) {
          throw methodNotAllowed();
        }
        yield BatchEndpoint.handle(call, ctx);
      }
    };
  }

  /** True when errors of this request are written as XML (the service-level and ACL operations). */
  static boolean speaksXml(HttpCall call) {
    return call.route() instanceof Route.ServiceRoot
        || (call.route() instanceof Route.EntitySet && "acl".equals(call.query("comp")));
  }

  static TableException methodNotAllowed() {
    return new TableException(TableErrorCode.METHOD_NOT_ALLOWED,
        "The requested method is not allowed on the specified resource.");
  }
}
