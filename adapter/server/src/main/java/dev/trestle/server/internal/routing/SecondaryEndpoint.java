package dev.trestle.server.internal.routing;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The read-only secondary endpoint of an account, {@code /{account}-secondary/...} in path style,
 * {@code {account}-secondary.table.suffix} in host style: the SDKs send Get Service Stats there
 * (the .NET SDK derives it from an emulator connection string). It reads the primary's data, which
 * here is always current.
 */
public final class SecondaryEndpoint {
  static final String SUFFIX = "-secondary";

  private SecondaryEndpoint() {}

  /**
   * The path with the primary account when it names a known account's secondary; else the path
   * itself.
   */
  public static ResourcePath primary(
      ResourcePath path, Set<String> accounts, Map<String, List<String>> query) {
    String account = path.account();
    if (accounts.contains(account) || !account.endsWith(SUFFIX)) {
      return path;
    }
    String primary = account.substring(0, account.length() - SUFFIX.length());
    if (!accounts.contains(primary)) {
      return path;
    }
    // The Python SDK sends Get Service Stats on a path-style endpoint to
    // /{account}-secondary/{account}/: the primary's service root below the secondary's segment.
    if (!path.hostStyle()
        && path.route() instanceof Route.EntitySet set
        && set.tableName().equals(primary)
        && query.getOrDefault("comp", List.of()).contains("stats")) {
      return new ResourcePath(primary, new Route.ServiceRoot());
    }
    return path.withAccount(primary);
  }

  /**
   * Get Service Stats reports geo-replication, which only the secondary knows: Azure answers it
   * there alone and refuses it on the primary with 400 {@code InvalidQueryParameterValue}.
   */
  public static void requireSecondaryForStats(Route route, Map<String, List<String>> query) {
    List<String> comp = query.get("comp");
    if (route instanceof Route.ServiceRoot && comp != null && comp.contains("stats")) {
      throw new TableException(
          TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
          "Value for one of the query parameters specified in the request URI is invalid: Get Service Stats is"
              + " served on the secondary endpoint ({account}-secondary) only.");
    }
  }

  /** Writes are refused on the secondary, as on a read-access geo-redundant account. */
  public static void requireRead(String method) {
    String verb = method.toUpperCase(Locale.ROOT);
    if (!verb.equals("GET") && !verb.equals("HEAD")) {
      throw new TableException(
          TableErrorCode.AUTHORIZATION_FAILURE,
          "This request is not authorized to perform this operation: the secondary endpoint is read-only.");
    }
  }
}
