package dev.trestle.server.internal.routing;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which account a request is for. Host-style when the first label of the host name names a served
 * account, or its {@code -secondary}: {@code account.table.core.windows.net}, {@code
 * account.table.corp.example}, {@code account.localhost} (as Azurite); the whole path is then the
 * resource. Path-style otherwise: the first path segment names the account ({@code
 * 127.0.0.1:10002/account/...}, as the emulators). Both are served at once; host-style can be
 * switched off.
 */
public final class AccountResolver {
  /** Served accounts by their lower-cased name: host names are case-insensitive. */
  private final Map<String, String> accounts = new HashMap<>();

  private final boolean hostStyle;

  public AccountResolver(Set<String> accounts, boolean hostStyle) {
    for (String account : accounts) {
      this.accounts.putIfAbsent(account.toLowerCase(Locale.ROOT), account);
    }
    this.hostStyle = hostStyle;
  }

  /**
   * @param host the host the request was sent to (the Host header), with or without its port
   * @param rawPath the path as sent, still percent-encoded
   */
  public ResourcePath resolve(String host, String rawPath) {
    String account = hostStyle ? accountOf(host) : null;
    return account == null || namesAccountFirst(rawPath, account)
        ? ResourcePath.parse(rawPath)
        : ResourcePath.hostStyle(account, rawPath);
  }

  /**
   * A path-style path sent to a host-style name ({@code account.localhost/account/Tables}), as an
   * endpoint written with both gives: read as path-style, since no host-style resource has a slash
   * inside (the path {@code /account} alone stays a table of that name).
   */
  private static boolean namesAccountFirst(String rawPath, String account) {
    if (rawPath == null) {
      return false;
    }
    int slash = rawPath.indexOf('/', 1);
    return slash > 0
        && slash < rawPath.length() - 1
        && rawPath.substring(1, slash).equalsIgnoreCase(account);
  }

  /**
   * The served account (or its secondary, {@code name-secondary}) the host name starts with; null
   * when the host is an IP address, a single label such as {@code localhost}, or names no account.
   */
  String accountOf(String host) {
    if (host == null || host.isBlank() || host.startsWith("[")) {
      return null; // no host, or an IPv6 literal
    }
    String name = host.strip();
    int colon = name.lastIndexOf(':');
    if (colon >= 0) {
      name = name.substring(0, colon);
    }
    int dot = name.indexOf('.');
    if (dot <= 0 || isIpv4(name)) {
      return null;
    }
    String label = name.substring(0, dot).toLowerCase(Locale.ROOT);
    String account = accounts.get(label);
    if (account != null) {
      return account;
    }
    if (label.endsWith(SecondaryEndpoint.SUFFIX)) {
      String primary =
          accounts.get(label.substring(0, label.length() - SecondaryEndpoint.SUFFIX.length()));
      return primary == null ? null : primary + SecondaryEndpoint.SUFFIX;
    }
    return null;
  }

  /** Digits and dots only (what a regular expression answered before, on every request). */
  private static boolean isIpv4(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if ((c < '0' || c > '9') && c != '.') {
        return false;
      }
    }
    return !name.isEmpty();
  }
}
