package dev.trestle.server.auth.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Builds account and table SAS parameters signed with the documented string-to-sign, field by
 * field.
 */
final class SasTokens {
  private SasTokens() {}

  /** Account SAS: account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n [ses \n]. */
  static Map<String, String> account(String account, String key, Map<String, String> fields) {
    Map<String, String> p = new LinkedHashMap<>(fields);
    String sv = p.get("sv");
    String stringToSign =
        account
            + "\n"
            + v(p, "sp")
            + "\n"
            + v(p, "ss")
            + "\n"
            + v(p, "srt")
            + "\n"
            + v(p, "st")
            + "\n"
            + v(p, "se")
            + "\n"
            + v(p, "sip")
            + "\n"
            + v(p, "spr")
            + "\n"
            + sv
            + "\n"
            + (sv.compareTo("2020-12-06") >= 0 ? v(p, "ses") + "\n" : "");
    p.put("sig", TestSigner.sign(key, stringToSign));
    return p;
  }

  /**
   * Table SAS: sp \n st \n se \n /table/account/table \n si \n sip \n spr \n sv \n spk \n srk \n
   * epk \n erk.
   */
  static Map<String, String> table(
      String account, String key, Map<String, String> fields, boolean lowerCase) {
    Map<String, String> p = new LinkedHashMap<>(fields);
    String resource = "/table/" + account + "/" + p.get("tn");
    String stringToSign =
        v(p, "sp")
            + "\n"
            + v(p, "st")
            + "\n"
            + v(p, "se")
            + "\n"
            + (lowerCase ? resource.toLowerCase(Locale.ROOT) : resource)
            + "\n"
            + v(p, "si")
            + "\n"
            + v(p, "sip")
            + "\n"
            + v(p, "spr")
            + "\n"
            + v(p, "sv")
            + "\n"
            + v(p, "spk")
            + "\n"
            + v(p, "srk")
            + "\n"
            + v(p, "epk")
            + "\n"
            + v(p, "erk");
    p.put("sig", TestSigner.sign(key, stringToSign));
    return p;
  }

  static FakeRequest request(String method, String url, Map<String, String> params) {
    FakeRequest request = FakeRequest.of(method, url);
    params.forEach(request::param);
    return request;
  }

  private static String v(Map<String, String> p, String name) {
    String value = p.get(name);
    return value == null ? "" : value;
  }
}
