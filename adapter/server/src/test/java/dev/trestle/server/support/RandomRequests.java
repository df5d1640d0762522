package dev.trestle.server.support;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random Table API requests, mostly malformed: odd verbs, paths, query options, headers and bodies
 * (broken JSON, wrong types, bad XML, bad multipart), built from pieces that are each valid or
 * nearly so, so that requests get past the first checks and reach the deeper ones.
 */
public final class RandomRequests {
  /** One request; the path and query are already percent-encoded. */
  public record Request(
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      byte[] body,
      boolean signed) {
    @Override
    public String toString() {
      return method
          + " "
          + pathAndQuery
          + " "
          + headers
          + (body == null
              ? ""
              : " body: "
                  + new String(body, StandardCharsets.UTF_8)
                      .substring(0, Math.min(body.length, 300)));
    }
  }

  private static final List<String> JUNK =
      List.of(
          "'",
          "''",
          "(",
          ")",
          "%25",
          "%00",
          "%C3%A9",
          "%E2%80%A8",
          "x".repeat(1500),
          "",
          "%20",
          "$",
          "%3F",
          "%23",
          "%2F",
          "%5C",
          ",",
          "=",
          "PartitionKey",
          "RowKey",
          "null",
          "true",
          "1e999",
          "-0",
          "NaN",
          "datetime'",
          "guid'",
          "X'",
          "binary'zz'",
          "a",
          "b",
          "1");
  private static final List<String> FILTERS =
      List.of(
          "PartitionKey eq 'a'",
          "A gt 1",
          "not",
          "(",
          "A eq",
          "eq 1",
          "A eq datetime'2020-13-01T00:00:00Z'",
          "A eq guid'zz'",
          "A eq X'1'",
          "A eq 99999999999999999999",
          "A eq 1.7976931348623157E+309",
          "A eq 12345678901L and",
          "A eq binary'0g'",
          "A eq 'x' or ".repeat(40) + "A eq 1",
          "RowKey ge '' and RowKey lt 'z' or not (B ne true)",
          "Timestamp lt datetime'9999-12-31T23:59:59.9999999Z'",
          "A eq -2147483649",
          "A eq 2147483648",
          "A eq 1.5d",
          "A eq 5M",
          "A eq 'unterminated",
          "substringof('a', A)",
          "A eq @p",
          "A eq null",
          "A/B eq 1",
          "A eq +1",
          "A eq 0x10",
          "A eq datetime'0001-01-01T00:00:00Z'");
  private static final List<Object> VALUES =
      List.of(
          "1",
          "-1",
          "2147483648",
          "9223372036854775808",
          "1.5",
          "\"s\"",
          "true",
          "null",
          "[]",
          "{}",
          "\"" + "x".repeat(40_000) + "\"",
          "\"\\ud800\"",
          "\"2020-01-01T00:00:00Z\"",
          "1e400");
  private static final List<String> TYPES =
      List.of(
          "\"Edm.Int32\"",
          "\"Edm.Int64\"",
          "\"Edm.Double\"",
          "\"Edm.Boolean\"",
          "\"Edm.DateTime\"",
          "\"Edm.Guid\"",
          "\"Edm.Binary\"",
          "\"Edm.String\"",
          "\"Edm.Bogus\"",
          "5");

  private final Random random;
  private final String table;

  public RandomRequests(Random random, String table) {
    this.random = random;
    this.table = table;
  }

  public Request next() {
    String method =
        pick(List.of("GET", "POST", "PUT", "MERGE", "PATCH", "DELETE", "HEAD", "OPTIONS"));
    String path =
        pick(
            List.of(
                "/Tables",
                "/Tables('" + table + "')",
                "/Tables(" + junk() + ")",
                "/" + table,
                "/" + table + "()",
                "/" + table + "(PartitionKey='p',RowKey='r')",
                "/" + table + "(PartitionKey='" + junk() + "',RowKey='" + junk() + "')",
                "/$batch",
                "/",
                "/" + junk(),
                "/" + table + "(" + junk() + ")"));
    String query =
        pick(
            List.of(
                "",
                "$filter=" + encode(pick(FILTERS)),
                "$top=" + junk(),
                "$select=" + junk(),
                "NextPartitionKey=" + junk() + "&NextRowKey=" + junk(),
                "comp=acl",
                "restype=service&comp=properties",
                "restype=service&comp=stats",
                "comp=" + junk(),
                "$format=" + junk(),
                "timeout=" + junk(),
                "NextTableName=" + junk()));
    Map<String, String> headers = new LinkedHashMap<>();
    String contentType =
        pick(
            List.of(
                "application/json",
                "application/json;odata=nometadata",
                "application/xml",
                "multipart/mixed; boundary=batch_x",
                "multipart/mixed",
                "text/plain",
                "application/json; charset=latin1"));
    headers.put("Content-Type", contentType);
    headers.put(
        "Accept",
        pick(
            List.of(
                "application/json;odata=nometadata",
                "application/json;odata=fullmetadata",
                "application/json",
                "application/xml",
                "*/*",
                "text/html")));
    switch (random.nextInt(6)) {
      case 0 ->
          headers.put(
              "If-Match",
              pick(List.of("*", "W/\"x\"", "W/\"datetime'2020-01-01T00%3A00%3A00Z'\"", "")));
      case 1 -> headers.put("Prefer", pick(List.of("return-content", "return-no-content", "x")));
      case 2 -> headers.put("x-ms-version", pick(List.of("2019-02-02", "1999-01-01", "x", "")));
      case 3 -> headers.put("X-HTTP-Method", pick(List.of("MERGE", "DELETE", "FOO")));
      case 4 -> {
        headers.put("Origin", "http://x.test");
        headers.put("Access-Control-Request-Method", pick(List.of("GET", "PUT", "x")));
      }
      default -> {}
    }
    byte[] body = random.nextInt(10) < 7 ? body().getBytes(StandardCharsets.UTF_8) : null;
    return new Request(
        method, path + (query.isEmpty() ? "" : "?" + query), headers, body, random.nextInt(20) > 0);
  }

  private String body() {
    return switch (random.nextInt(10)) {
      case 0, 1, 2, 3, 4 -> entity();
      case 5 -> "{\"PartitionKey\":\"p\",";
      case 6 -> junk() + junk();
      case 7 ->
          "<?xml version=\"1.0\"?><SignedIdentifiers><SignedIdentifier><Id>"
              + junk()
              + "</Id><AccessPolicy><Start>"
              + junk()
              + "</Start><Permission>"
              + junk()
              + "</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>";
      default ->
          "--batch_x\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\nContent-Type: application/http\r\n\r\n"
              + pick(List.of("POST", "PUT", "MERGE", "DELETE", "GET", "FOO"))
              + " http://127.0.0.1/acct/"
              + table
              + pick(List.of("", "(PartitionKey='p',RowKey='r')", "()", junk()))
              + " HTTP/1.1\r\nContent-Type: application/json\r\n"
              + pick(List.of("If-Match: *\r\n", "", "If-Match: zz\r\n"))
              + "\r\n"
              + entity()
              + "\r\n--cs--\r\n--batch_x--\r\n";
    };
  }

  private String entity() {
    StringBuilder json = new StringBuilder("{");
    if (random.nextInt(10) > 0) {
      json.append("\"PartitionKey\":")
          .append(pick(List.of("\"p\"", "\"" + junk() + "\"", "5", "null")))
          .append(',');
    }
    if (random.nextInt(10) > 0) {
      json.append("\"RowKey\":")
          .append(pick(List.of("\"r\"", "\"" + junk() + "\"", "5", "null")))
          .append(',');
    }
    for (int i = random.nextInt(5); i > 0; i--) {
      String name =
          pick(
              List.of(
                  "A", "B", "Timestamp", "odata.etag", junk(), "x".repeat(300), "A@odata.type"));
      json.append('"').append(name).append("\":").append(pick(VALUES)).append(',');
      if (random.nextBoolean()) {
        json.append('"').append(name).append("@odata.type\":").append(pick(TYPES)).append(',');
      }
    }
    json.setLength(json.length() - 1);
    return json.append('}').toString().replace("{}", "{\"a\":1}");
  }

  private String junk() {
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(4); i > 0; i--) {
      text.append(pick(JUNK));
    }
    return text.toString();
  }

  private <T> T pick(List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
