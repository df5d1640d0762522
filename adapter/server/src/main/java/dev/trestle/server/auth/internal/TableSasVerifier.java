package dev.trestle.server.auth.internal;

import static dev.trestle.server.auth.internal.Params.orEmpty;

import dev.trestle.AccessPolicy;
import dev.trestle.server.auth.SharedKeySigner;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Checks a table SAS ({@code tn} present). String to sign (sv 2015-04-05 and later): {@code sp \n
 * st \n se \n /table/account/table \n si \n sip \n spr \n sv \n spk \n srk \n epk \n erk}. The Java
 * and Python SDKs lower-case the canonical resource; a client that keeps the table's casing is
 * accepted too. With {@code si}, start, expiry and permissions come from the table's stored access
 * policy; giving one both in the URL and in the policy is an error.
 */
public final class TableSasVerifier {
  private final AccountKeys keys;
  private final BiFunction<String, String, List<AccessPolicy>> accessPolicies;
  private final Clock clock;

  public TableSasVerifier(
      AccountKeys keys,
      BiFunction<String, String, List<AccessPolicy>> accessPolicies,
      Clock clock) {
    this.keys = keys;
    this.accessPolicies = accessPolicies;
    this.clock = clock;
  }

  public Grant verify(SignedRequest request, String account) {
    String sv = Params.required(request, "sv");
    String tn = Params.required(request, "tn");
    String sig = Params.required(request, "sig");
    String sp = Params.single(request, "sp");
    String st = Params.single(request, "st");
    String se = Params.single(request, "se");
    String si = Params.single(request, "si");
    String sip = Params.single(request, "sip");
    String spr = Params.single(request, "spr");
    String spk = Params.single(request, "spk");
    String srk = Params.single(request, "srk");
    String epk = Params.single(request, "epk");
    String erk = Params.single(request, "erk");

    String tail =
        "\n"
            + orEmpty(si)
            + "\n"
            + orEmpty(sip)
            + "\n"
            + orEmpty(spr)
            + "\n"
            + sv
            + "\n"
            + orEmpty(spk)
            + "\n"
            + orEmpty(srk)
            + "\n"
            + orEmpty(epk)
            + "\n"
            + orEmpty(erk);
    String head = orEmpty(sp) + "\n" + orEmpty(st) + "\n" + orEmpty(se) + "\n";
    String resource = "/table/" + account + "/" + tn;
    Set<String> stringsToSign = new LinkedHashSet<>();
    stringsToSign.add(head + resource.toLowerCase(Locale.ROOT) + tail);
    stringsToSign.add(head + resource + tail);
    verifySignature(account, sig, stringsToSign);

    Instant start = SasTime.parse("st", st);
    Instant expiry = SasTime.parse("se", se);
    String permissions = sp;
    if (si != null) {
      AccessPolicy policy = storedPolicy(account, tn, si);
      start = merge("st", start, policy.start());
      expiry = merge("se", expiry, policy.expiry());
      permissions = merge("sp", permissions, emptyToNull(policy.permissions()));
    }
    if (permissions == null) {
      throw AuthFailures.authenticationFailed("sp is mandatory. Cannot be empty");
    }
    SasConstraints.check(request, clock.instant(), start, expiry, sip, spr);
    if (srk != null && spk == null || erk != null && epk == null) {
      throw AuthFailures.authenticationFailed("srk and erk need spk and epk respectively.");
    }
    KeyRange range = spk == null && epk == null ? null : new KeyRange(spk, srk, epk, erk);
    return new TableSasGrant(tn, permissions, range);
  }

  private void verifySignature(String account, String sig, Set<String> stringsToSign) {
    byte[] provided = Hmac.decodeSignature(sig);
    for (SharedKeySigner key : keys.of(account)) {
      for (String stringToSign : stringsToSign) {
        if (Hmac.matches(provided, key.sign(stringToSign))) {
          return;
        }
      }
    }
    throw AuthFailures.authenticationFailed(
        "Signature did not match. String to sign used was "
            + stringsToSign.iterator().next().replace("\n", "\\n"));
  }

  private AccessPolicy storedPolicy(String account, String table, String id) {
    List<AccessPolicy> policies = accessPolicies.apply(account, table);
    if (policies != null) {
      for (AccessPolicy policy : policies) {
        if (policy.id().equals(id)) {
          return policy;
        }
      }
    }
    throw AuthFailures.authenticationFailed(
        "The signed identifier '"
            + id
            + "' is not a stored access policy of table '"
            + table
            + "'.");
  }

  private static <T> T merge(String name, T fromUrl, T fromPolicy) {
    if (fromUrl != null && fromPolicy != null) {
      throw AuthFailures.authenticationFailed(
          name + " is given both in the signature and in the stored access policy.");
    }
    return fromUrl != null ? fromUrl : fromPolicy;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
