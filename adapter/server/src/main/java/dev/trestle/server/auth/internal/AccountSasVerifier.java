package dev.trestle.server.auth.internal;

import static dev.trestle.server.auth.internal.Params.orEmpty;

import dev.trestle.server.auth.SharedKeySigner;
import java.time.Clock;
import java.util.List;

/**
 * Checks an account SAS ({@code ss}, {@code srt} present). String to sign, for {@code sv}
 * 2015-04-05 and later: {@code account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n}, with
 * {@code ses \n} appended from 2020-12-06 on.
 */
public final class AccountSasVerifier {
  private static final String ENCRYPTION_SCOPE_VERSION = "2020-12-06";

  private final AccountKeys keys;
  private final Clock clock;

  public AccountSasVerifier(AccountKeys keys, Clock clock) {
    this.keys = keys;
    this.clock = clock;
  }

  public Grant verify(SignedRequest request, String account) {
    String sv = Params.required(request, "sv");
    String ss = Params.required(request, "ss");
    String srt = Params.required(request, "srt");
    String sp = Params.required(request, "sp");
    String st = Params.single(request, "st");
    String se = Params.required(request, "se");
    String sip = Params.single(request, "sip");
    String spr = Params.single(request, "spr");
    String sig = Params.required(request, "sig");

    String stringToSign =
        account
            + "\n"
            + sp
            + "\n"
            + ss
            + "\n"
            + srt
            + "\n"
            + orEmpty(st)
            + "\n"
            + se
            + "\n"
            + orEmpty(sip)
            + "\n"
            + orEmpty(spr)
            + "\n"
            + sv
            + "\n"
            + (sv.compareTo(ENCRYPTION_SCOPE_VERSION) >= 0
                ? orEmpty(Params.single(request, "ses")) + "\n"
                : "");
    verifySignature(account, sig, stringToSign);

    SasConstraints.check(
        request, clock.instant(), SasTime.parse("st", st), SasTime.parse("se", se), sip, spr);
    if (ss.indexOf('t') < 0) {
      throw AuthFailures.serviceMismatch();
    }
    return new AccountSasGrant(srt, sp);
  }

  private void verifySignature(String account, String sig, String stringToSign) {
    List<SharedKeySigner> accountKeys = keys.of(account);
    byte[] provided = Hmac.decodeSignature(sig);
    for (SharedKeySigner key : accountKeys) {
      if (Hmac.matches(provided, key.sign(stringToSign))) {
        return;
      }
    }
    throw AuthFailures.authenticationFailed(
        "Signature did not match. String to sign used was " + stringToSign.replace("\n", "\\n"));
  }
}
