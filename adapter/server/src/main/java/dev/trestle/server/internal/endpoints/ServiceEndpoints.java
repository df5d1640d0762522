package dev.trestle.server.internal.endpoints;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.xml.AccessPolicyXml;
import dev.trestle.server.internal.xml.ServicePropertiesXml;
import dev.trestle.server.internal.xml.ServiceStatsXml;

/** Service properties, service stats and table ACLs: the XML operations. */
public final class ServiceEndpoints {
  private static final String XML = "application/xml";

  private ServiceEndpoints() {}

  public static ApiResponse handle(
      HttpCall call, CallContext ctx, ServicePropertiesCache properties) {
    String restype = call.query("restype");
    String comp = call.query("comp");
    if (!"service".equals(restype) || !("properties".equals(comp) || "stats".equals(comp))) {
      throw new TableException(
          TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
          "Value for one of the query parameters specified in the request URI is invalid.");
    }
    String method = call.method();
    if (comp.equals("stats")) {
      if (!method.equals("GET")) {
        throw HttpCall.methodNotAllowed();
      }
      ctx.grant().authorize(Operation.GET_SERVICE_STATS, null);
      return ApiResponse.status(200).body(XML, ServiceStatsXml.write(ctx.clock().instant()));
    }
    return switch (method) {
      case "GET" -> {
        ctx.grant().authorize(Operation.GET_SERVICE_PROPERTIES, null);
        yield ApiResponse.status(200)
            .body(XML, ServicePropertiesXml.write(properties.load(ctx.tables())));
      }
      case "PUT" -> {
        ctx.grant().authorize(Operation.SET_SERVICE_PROPERTIES, null);
        properties.update(ctx.tables(), call.body());
        yield ApiResponse.status(202);
      }
      default -> throw HttpCall.methodNotAllowed();
    };
  }

  public static ApiResponse acl(HttpCall call, CallContext ctx, String table) {
    return switch (call.method()) {
      case "GET", "HEAD" -> {
        ctx.grant().authorize(Operation.GET_TABLE_ACL, table);
        yield ApiResponse.status(200)
            .body(XML, AccessPolicyXml.write(ctx.tables().getAccessPolicies(table)));
      }
      case "PUT" -> {
        ctx.grant().authorize(Operation.SET_TABLE_ACL, table);
        ctx.tables().setAccessPolicies(table, AccessPolicyXml.parse(call.body()));
        yield ApiResponse.status(204);
      }
      default -> throw HttpCall.methodNotAllowed();
    };
  }
}
