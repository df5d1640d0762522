package dev.trestle.server.auth.internal;

import dev.trestle.server.auth.SharedKeySigner;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks {@code Authorization: SharedKey|SharedKeyLite account:signature} the way the Table service
 * does: the string to sign has no canonicalized x-ms headers, the Date line is {@code x-ms-date}
 * when present (else {@code Date}), and the canonicalized resource is {@code /account} + the
 * request path + {@code ?comp=} only.
 */
public final class SharedKeyVerifier {
  private final AccountKeys keys;
  private final Clock clock;
  private final Duration allowedSkew;
  private final boolean undated;
  private volatile ParsedDate lastDate;

  public SharedKeyVerifier(AccountKeys keys, Clock clock, Duration allowedSkew) {
    this(keys, clock, allowedSkew, false);
  }

  /**
   * @param undated whether a request without any date header is checked with an empty date line
   *     (Azurite's loose mode, for hand-written clients) instead of refused as Azure refuses it
   */
  public SharedKeyVerifier(AccountKeys keys, Clock clock, Duration allowedSkew, boolean undated) {
    this.keys = keys;
    this.clock = clock;
    this.allowedSkew = allowedSkew;
    this.undated = undated;
  }

  /**
   * Returns normally when the header is valid for {@code account}; throws the service's error
   * otherwise.
   */
  public void verify(SignedRequest request, String account, String authorization) {
    Credential credential = Credential.parse(authorization);
    if (!credential.account().equals(account)) {
      throw AuthFailures.authenticationFailed(
          "The account '"
              + credential.account()
              + "' of the Authorization header is not the account '"
              + account
              + "' of the request.");
    }
    List<SharedKeySigner> accountKeys = keys.of(account);
    if (accountKeys.isEmpty()) {
      throw AuthFailures.authenticationFailed("The account '" + account + "' does not exist.");
    }
    String date = checkedDate(request);

    byte[] provided = Hmac.decodeSignature(credential.signature());
    // the path as sent nearly always matches: the other forms are signed only when it does not
    String firstStringToSign = null;
    for (String resource : canonicalizedResources(request, account)) {
      String stringToSign =
          credential.lite()
              ? SharedKeySigner.liteStringToSign(date, resource)
              : SharedKeySigner.stringToSign(
                  request.method(),
                  request.header("Content-MD5"),
                  request.header("Content-Type"),
                  date,
                  resource);
      if (firstStringToSign == null) {
        firstStringToSign = stringToSign;
      }
      for (SharedKeySigner key : accountKeys) {
        if (Hmac.matches(provided, key.sign(stringToSign))) {
          return;
        }
      }
    }
    throw AuthFailures.authenticationFailed(
        "The MAC signature found in the HTTP request '"
            + credential.signature()
            + "' is not the same as any computed signature. Server used following string to sign: '"
            + firstStringToSign
            + "'.");
  }

  private String checkedDate(SignedRequest request) {
    String date = request.header("x-ms-date");
    if (date == null || date.isBlank()) {
      date = request.header("Date");
    }
    if (date == null || date.isBlank()) {
      if (undated) {
        return "";
      }
      throw AuthFailures.authenticationFailed("Request date header not specified.");
    }
    Instant sent = parsedDate(date);
    Instant now = clock.instant();
    if (sent.isBefore(now.minus(allowedSkew))) {
      throw AuthFailures.authenticationFailed("Request date header too old: '" + date + "'.");
    }
    if (sent.isAfter(now.plus(allowedSkew))) {
      throw AuthFailures.authenticationFailed(
          "Request date header is in the future: '" + date + "'.");
    }
    return date;
  }

  /**
   * Clients send the same date string for a whole second, so the last parse is nearly always
   * reusable.
   */
  private Instant parsedDate(String date) {
    String text = date.trim();
    ParsedDate last = lastDate;
    if (last != null && last.text().equals(text)) {
      return last.instant();
    }
    Instant instant;
    try {
      instant = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw AuthFailures.authenticationFailed(
          "The date header '" + date + "' is not in RFC 1123 format.");
    }
    lastDate = new ParsedDate(text, instant);
    return instant;
  }

  /**
   * A date header and its parsed value; immutable, so a racing reader sees either the old pair or
   * the new.
   */
  private record ParsedDate(String text, Instant instant) {}

  /**
   * The path exactly as sent first; then its percent-decoded form, because clients differ in what
   * they escape before signing (quotes, spaces in keys) and the decoded form is what they all start
   * from; then the path with its quotes escaped as {@code %27}, which clients that escape before
   * signing but send quotes as-is produce.
   */
  static Set<String> canonicalizedResources(SignedRequest request, String account) {
    String rawPath =
        request.rawPath() == null || request.rawPath().isEmpty() ? "/" : request.rawPath();
    String comp = compSuffix(request);
    Set<String> resources = new LinkedHashSet<>();
    resources.add("/" + account + rawPath + comp);
    String decoded = decodePath(rawPath);
    if (decoded != null) {
      resources.add("/" + account + decoded + comp);
    }
    if (rawPath.indexOf('\'') >= 0) {
      resources.add("/" + account + rawPath.replace("'", "%27") + comp);
    }
    // Requests to the secondary endpoint (/account-secondary/...) are signed for the primary's
    // path.
    String secondary = "/" + account + "-secondary";
    if (rawPath.startsWith(secondary + "/") || rawPath.equals(secondary)) {
      String below = rawPath.substring(secondary.length());
      resources.add("/" + account + "/" + account + below + comp);
      // the Python SDK signs its path-style Get Service Stats, sent to
      // /{account}-secondary/{account}/, as the primary's /{account}/
      if (below.equals("/" + account) || below.equals("/" + account + "/")) {
        resources.add("/" + account + below + comp);
      }
    }
    return resources;
  }

  private static String compSuffix(SignedRequest request) {
    List<String> comp = request.queryParameters("comp");
    if (comp == null || comp.isEmpty()) {
      return "";
    }
    return "?comp=" + String.join(",", comp.stream().sorted().toList());
  }

  private static String decodePath(String rawPath) {
    if (rawPath.indexOf('%') < 0) {
      return null;
    }
    try {
      // URLDecoder would turn '+' into a space; in a path '+' is literal.
      return URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The parsed {@code Authorization} header. */
  record Credential(boolean lite, String account, String signature) {
    static Credential parse(String authorization) {
      String value = authorization.trim();
      int space = value.indexOf(' ');
      if (space < 0) {
        throw AuthFailures.invalidAuthenticationInfo();
      }
      String scheme = value.substring(0, space);
      String rest = value.substring(space + 1).trim();
      int colon = rest.indexOf(':');
      boolean lite = scheme.equals("SharedKeyLite");
      if (!lite && !scheme.equals("SharedKey") || colon <= 0 || colon == rest.length() - 1) {
        throw AuthFailures.invalidAuthenticationInfo();
      }
      return new Credential(lite, rest.substring(0, colon), rest.substring(colon + 1));
    }
  }
}
