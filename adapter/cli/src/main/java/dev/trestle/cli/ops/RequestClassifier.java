package dev.trestle.cli.ops;

import java.util.Locale;

/**
 * Names the Table operation of a request from its method, path and a few headers, for metric tags and
 * request logs. Never returns a table name or key, so the number of metric series stays bounded.
 */
public final class RequestClassifier {
  private RequestClassifier() {}

  /**
   * @param method the HTTP method (a POST tunnelling another verb through X-HTTP-Method passes that verb)
   * @param path the decoded path, starting with the account, e.g. {@code /devstoreaccount1/mytable()}
   * @param query the raw query string or null
   * @param hasIfMatch whether the request carries If-Match (update/merge versus their upsert forms)
   */
  public static String classify(String method, String path, String query, boolean hasIfMatch) {
    String verb = method.toUpperCase(Locale.ROOT);
    if (verb.equals("OPTIONS")) {
      return "Preflight";
    }
    String q = query == null ? "" : query.toLowerCase(Locale.ROOT);
    String[] segments = path.replaceAll("^/+|/+$", "").split("/", -1);
    if (segments.length == 1 || segments.length == 2 && segments[1].isEmpty()) {
      return serviceOperation(verb, q);
    }
    if (segments.length != 2) {
      return "Other";
    }
    String resource = segments[1];
    if (resource.equals("$batch")) {
      return verb.equals("POST") ? "Batch" : "Other";
    }
    if (resource.equals("Tables") || resource.equals("Tables()")) {
      return switch (verb) {
        case "GET" -> "QueryTables";
        case "POST" -> "CreateTable";
        default -> "Other";
      };
    }
    if (resource.startsWith("Tables(")) {
      return switch (verb) {
        case "DELETE" -> "DeleteTable";
        case "GET" -> "GetTable";
        default -> "Other";
      };
    }
    if (q.contains("comp=acl")) {
      return switch (verb) {
        case "GET", "HEAD" -> "GetTableAcl";
        case "PUT" -> "SetTableAcl";
        default -> "Other";
      };
    }
    int parenthesis = resource.indexOf('(');
    boolean keyed = parenthesis > 0 && resource.length() > parenthesis + 2;
    if (!keyed) {
      return switch (verb) {
        case "GET" -> "QueryEntities";
        case "POST" -> "InsertEntity";
        default -> "Other";
      };
    }
    return switch (verb) {
      case "GET" -> "GetEntity";
      case "PUT" -> hasIfMatch ? "UpdateEntity" : "InsertOrReplaceEntity";
      case "MERGE", "PATCH" -> hasIfMatch ? "MergeEntity" : "InsertOrMergeEntity";
      case "DELETE" -> "DeleteEntity";
      default -> "Other";
    };
  }

  private static String serviceOperation(String verb, String query) {
    if (query.contains("comp=properties")) {
      return switch (verb) {
        case "GET" -> "GetServiceProperties";
        case "PUT" -> "SetServiceProperties";
        default -> "Other";
      };
    }
    if (query.contains("comp=stats") && verb.equals("GET")) {
      return "GetServiceStats";
    }
    return "Other";
  }
}
