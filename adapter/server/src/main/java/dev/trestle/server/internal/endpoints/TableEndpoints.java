package dev.trestle.server.internal.endpoints;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableInfo;
import dev.trestle.TablePage;
import dev.trestle.TableQuery;
import dev.trestle.json.EntityJson;
import dev.trestle.json.MetadataLevel;
import dev.trestle.server.auth.internal.Operation;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.json.ODataJsonWriter;
import dev.trestle.server.internal.routing.HttpCall;
import java.io.IOException;
import java.util.Locale;

/** Create, delete, get and query tables. */
public final class TableEndpoints {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private TableEndpoints() {}

  public static ApiResponse create(HttpCall call, CallContext ctx) {
    ctx.grant().authorize(Operation.CREATE_TABLE, null);
    String name = tableName(call.body());
    TableInfo created = ctx.tables().createTable(name);
    String location =
        call.baseUrl() + "/Tables('" + ODataJsonWriter.keyLiteral(created.name()) + "')";
    String prefer =
        call.header("Prefer") == null
            ? null
            : call.header("Prefer").trim().toLowerCase(Locale.ROOT);
    if ("return-no-content".equals(prefer)) {
      return ApiResponse.status(204)
          .header("Location", location)
          .header("DataServiceId", location)
          .header("Preference-Applied", "return-no-content");
    }
    MetadataLevel level = call.metadataLevel();
    return ApiResponse.status(201)
        .header("Location", location)
        .header("Preference-Applied", "return-content".equals(prefer) ? prefer : null)
        .body(level.contentType(), writer(call, level).table(created.name()));
  }

  public static ApiResponse delete(CallContext ctx, String name) {
    ctx.grant().authorize(Operation.DELETE_TABLE, name);
    try {
      ctx.tables().deleteTable(name);
    } catch (TableException e) {
      // The table is the addressed resource here, not a container: Azure answers ResourceNotFound.
      if (e.errorCode() == TableErrorCode.TABLE_NOT_FOUND) {
        throw new TableException(
            TableErrorCode.RESOURCE_NOT_FOUND, "The specified resource does not exist.", e);
      }
      throw e;
    }
    return ApiResponse.status(204);
  }

  public static ApiResponse get(HttpCall call, CallContext ctx, String name) {
    ctx.grant().authorize(Operation.QUERY_TABLES, name);
    TableInfo table =
        ctx.tables()
            .getTable(name)
            .orElseThrow(
                () ->
                    new TableException(
                        TableErrorCode.TABLE_NOT_FOUND, "The table specified does not exist."));
    MetadataLevel level = call.metadataLevel();
    return ApiResponse.status(200)
        .body(level.contentType(), writer(call, level).table(table.name()));
  }

  public static ApiResponse query(HttpCall call, CallContext ctx) {
    ctx.grant().authorize(Operation.QUERY_TABLES, null);
    TableQuery query =
        Preconditions.query(
            () ->
                new TableQuery(
                    Preconditions.filter(call),
                    Preconditions.top(call),
                    call.query("NextTableName")));
    TablePage page = ctx.tables().queryTables(query);
    MetadataLevel level = call.metadataLevel();
    ApiResponse response =
        ApiResponse.status(200)
            .body(level.contentType(), writer(call, level).tables(page.tables()));
    page.nextTableName()
        .ifPresent(next -> response.header("x-ms-continuation-NextTableName", next));
    return response;
  }

  /** The TableName of a Create Table body; other keys are ignored. */
  private static String tableName(byte[] body) {
    String name = null;
    try (JsonParser parser = JSON.createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw EntityJson.notAJsonObject();
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("TableName")) {
          if (value != JsonToken.VALUE_STRING) {
            throw new TableException(TableErrorCode.INVALID_INPUT, "TableName must be a string.");
          }
          name = parser.getText();
        } else {
          parser.skipChildren();
        }
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        throw EntityJson.notAJsonObject();
      }
    } catch (IOException e) {
      throw EntityJson.notAJsonObject();
    }
    if (name == null || name.isEmpty()) {
      throw new TableException(TableErrorCode.INVALID_INPUT, "The TableName property is required.");
    }
    return name;
  }

  private static ODataJsonWriter writer(HttpCall call, MetadataLevel level) {
    return new ODataJsonWriter(level, call.baseUrl(), call.account());
  }
}
