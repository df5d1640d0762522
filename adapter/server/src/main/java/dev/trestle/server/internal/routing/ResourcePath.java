package dev.trestle.server.internal.routing;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.server.internal.http.PercentCodec;

/**
 * A request's account and the resource below it. Path-style ({@code /{account}/Tables}) takes the
 * account from the first path segment; host-style ({@code account.table.suffix} with path {@code
 * /Tables}) from the host name, and the whole path is the resource.
 */
public record ResourcePath(String account, Route route, boolean hostStyle) {

  public ResourcePath(String account, Route route) {
    this(account, route, false);
  }

  /**
   * Parses a raw (still percent-encoded) path-style path such as {@code
   * /devstoreaccount1/t1(PartitionKey='a',RowKey='b')}.
   */
  public static ResourcePath parse(String rawPath) {
    if (rawPath == null || !rawPath.startsWith("/") || rawPath.length() == 1) {
      throw new TableException(
          TableErrorCode.INVALID_INPUT,
          "The request URI must name an account: http://host:port/{account}/... or"
              + " http://{account}.table.suffix/...");
    }
    int slash = rawPath.indexOf('/', 1);
    String account =
        PercentCodec.decodePath(slash < 0 ? rawPath.substring(1) : rawPath.substring(1, slash));
    String resource = slash < 0 ? "" : PercentCodec.decodePath(rawPath.substring(slash + 1));
    return new ResourcePath(account, RouteParser.parse(resource), false);
  }

  /**
   * Parses a raw path of a host-style request for {@code account}, e.g. {@code /Tables} or {@code
   * /t1(PartitionKey='a',RowKey='b')}; {@code /} (or nothing) is the service root.
   */
  public static ResourcePath hostStyle(String account, String rawPath) {
    String path = rawPath == null ? "" : rawPath;
    String resource = path.startsWith("/") ? path.substring(1) : path;
    return new ResourcePath(account, RouteParser.parse(PercentCodec.decodePath(resource)), true);
  }

  /** The same resource addressed for another account (the primary of a secondary). */
  ResourcePath withAccount(String otherAccount) {
    return new ResourcePath(otherAccount, route, hostStyle);
  }
}
