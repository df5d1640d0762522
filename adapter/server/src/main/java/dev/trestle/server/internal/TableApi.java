package dev.trestle.server.internal;

import dev.trestle.server.internal.batch.BatchEndpoint;
import dev.trestle.server.internal.endpoints.CallContext;
import dev.trestle.server.internal.endpoints.ChangeFeedEndpoints;
import dev.trestle.server.internal.endpoints.EntityEndpoints;
import dev.trestle.server.internal.endpoints.ExtensionEndpoints;
import dev.trestle.server.internal.endpoints.ServiceEndpoints;
import dev.trestle.server.internal.endpoints.ServicePropertiesCache;
import dev.trestle.server.internal.endpoints.TableEndpoints;
import dev.trestle.server.internal.endpoints.TimeToLiveEndpoints;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.http.RequestEvents;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.Route;
import java.util.List;
import java.util.Map;

/**
 * Dispatches a parsed request to the operation its route and verb name, and names that operation
 * for the request listeners: both read the same route, so metrics and logs never re-parse a URL.
 */
final class TableApi {
  private TableApi() {}

  /**
   * The name of the operation {@link #dispatch} runs for this route and effective verb ({@code
   * verb} is null when the request's X-HTTP-Method is refused): {@code Other} when it runs none.
   * Decided before authentication, so a refused request is still counted under the operation it
   * asked for.
   */
  static final String PREFLIGHT = "Preflight";

  static String operation(
      Route route, String verb, Map<String, List<String>> query, boolean ifMatch) {
    if (verb == null) {
      return RequestEvents.OTHER;
    }
    String name =
        switch (route) {
          case Route.ServiceRoot root -> serviceOperation(first(query, "comp"), verb);
          case Route.TableCollection tables ->
              switch (verb) {
                case "GET" -> "QueryTables";
                case "POST" -> "CreateTable";
                default -> null;
              };
          case Route.TableResource table ->
              switch (verb) {
                case "GET" -> "GetTable";
                case "DELETE" -> "DeleteTable";
                default -> null;
              };
          case Route.EntitySet set when "acl".equals(first(query, "comp")) ->
              switch (verb) {
                case "GET", "HEAD" -> "GetTableAcl";
                case "PUT" -> "SetTableAcl";
                default -> null;
              };
          case Route.EntitySet set when query.containsKey(TimeToLiveEndpoints.TTL) ->
              switch (verb) {
                case "GET" -> "GetTableTimeToLive";
                case "PUT" -> "SetTableTimeToLive";
                default -> null;
              };
          case Route.EntitySet set ->
              switch (verb) {
                case "GET" -> "QueryEntities";
                case "POST" -> "InsertEntity";
                case "DELETE" ->
                    query.containsKey(ExtensionEndpoints.DELETE) ? "DeleteEntities" : null;
                default -> null;
              };
          case Route.EntityCount count ->
              verb.equals("GET")
                  ? (count.rowKey() == null ? "CountEntities" : "EntityExists")
                  : null;
          case Route.EntityResource entity ->
              switch (verb) {
                case "GET" -> "GetEntity";
                case "PUT" -> ifMatch ? "UpdateEntity" : "InsertOrReplaceEntity";
                case "MERGE", "PATCH" -> ifMatch ? "MergeEntity" : "InsertOrMergeEntity";
                case "DELETE" -> "DeleteEntity";
                default -> null;
              };
          case Route.ChangeFeed feed ->
              switch (verb) {
                case "GET" -> "ReadChanges";
                case "PUT" -> "EnableChangeFeed";
                case "DELETE" -> "DisableChangeFeed";
                default -> null;
              };
          case Route.Batch batch -> verb.equals("POST") ? "Batch" : null;
        };
    return name == null ? RequestEvents.OTHER : name;
  }

  private static String serviceOperation(String comp, String verb) {
    if ("properties".equals(comp)) {
      return switch (verb) {
        case "GET" -> "GetServiceProperties";
        case "PUT" -> "SetServiceProperties";
        default -> null;
      };
    }
    return "stats".equals(comp) && verb.equals("GET") ? "GetServiceStats" : null;
  }

  /** The first value of a query parameter, or null. */
  static String first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  static ApiResponse dispatch(HttpCall call, CallContext ctx, ServicePropertiesCache properties) {
    String method = call.method();
    return switch (call.route()) {
      case Route.ServiceRoot root -> ServiceEndpoints.handle(call, ctx, properties);
      case Route.TableCollection tables ->
          switch (method) {
            case "GET" -> TableEndpoints.query(call, ctx);
            case "POST" -> TableEndpoints.create(call, ctx);
            default -> throw HttpCall.methodNotAllowed();
          };
      case Route.TableResource table ->
          switch (method) {
            case "GET" -> TableEndpoints.get(call, ctx, table.tableName());
            case "DELETE" -> TableEndpoints.delete(ctx, table.tableName());
            default -> throw HttpCall.methodNotAllowed();
          };
      case Route.EntitySet set -> {
        if ("acl".equals(call.query("comp"))) {
          yield ServiceEndpoints.acl(call, ctx, set.tableName());
        }
        if (call.query(TimeToLiveEndpoints.TTL) != null) {
          yield TimeToLiveEndpoints.handle(call, ctx, set.tableName());
        }
        yield switch (method) {
          case "GET" ->
              call.query(ExtensionEndpoints.ORDER_BY) != null
                  ? ExtensionEndpoints.queryOrdered(call, ctx, set.tableName())
                  : EntityEndpoints.query(call, ctx, set.tableName());
          case "POST" -> EntityEndpoints.write(call, ctx);
          case "DELETE" -> {
            if (call.query(ExtensionEndpoints.DELETE) == null) {
              throw HttpCall.methodNotAllowed();
            }
            yield ExtensionEndpoints.delete(call, ctx, set.tableName());
          }
          default -> throw HttpCall.methodNotAllowed();
        };
      }
      case Route.EntityCount count -> {
        if (!method.equals("GET")) {
          throw HttpCall.methodNotAllowed();
        }
        yield ExtensionEndpoints.count(call, ctx, count);
      }
      case Route.EntityResource entity ->
          switch (method) {
            case "GET" -> EntityEndpoints.get(call, ctx, entity);
            case "PUT", "MERGE", "PATCH", "DELETE" -> EntityEndpoints.write(call, ctx);
            default -> throw HttpCall.methodNotAllowed();
          };
      case Route.ChangeFeed feed -> ChangeFeedEndpoints.handle(call, ctx, feed.tableName());
      case Route.Batch batch -> {
        if (!method.equals("POST")) {
          throw HttpCall.methodNotAllowed();
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
}
