package dev.trestle.server.internal.routing;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.server.internal.http.PercentCodec;

/** A path-style request path split into its account and the resource below it. */
public record ResourcePath(String account, Route route) {

  /**
   * Parses a raw (still percent-encoded) path such as {@code
   * /devstoreaccount1/t1(PartitionKey='a',RowKey='b')}.
   */
  public static ResourcePath parse(String rawPath) {
    if (rawPath == null || !rawPath.startsWith("/") || rawPath.length() == 1) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "The request URI must name an account: http://host:port/{account}/...");
    }
    int slash = rawPath.indexOf('/', 1);
    String account =
        PercentCodec.decodePath(slash < 0 ? rawPath.substring(1) : rawPath.substring(1, slash));
    String resource = slash < 0 ? "" : PercentCodec.decodePath(rawPath.substring(slash + 1));
    return new ResourcePath(account, RouteParser.parse(resource));
  }
}
